// DOM helpers. Every piece of text reaches the page through text nodes or setAttribute, never
// through HTML parsing: document text is untrusted (and the CSP forbids inline script besides).

const SAFE_HREF = /^(#|\/(?!\/)|blob:)/;

/** Create an element. attrs: class, on<event> (functions), dataset, plain attributes. */
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === 'class') el.className = value;
    else if (key === 'dataset') Object.assign(el.dataset, value);
    else if (key.startsWith('on') && typeof value === 'function') {
      el.addEventListener(key.slice(2), value);
    } else if (key.startsWith('on')) {
      throw new Error(`refusing a non-function ${key} attribute`);
    } else if ((key === 'href' || key === 'src') && !SAFE_HREF.test(String(value))) {
      throw new Error(`refusing an external or scripted ${key}`);
    } else if (value === true) el.setAttribute(key, '');
    else el.setAttribute(key, String(value));
  }
  append(el, children);
  return el;
}

export function append(el, children) {
  for (const child of [children].flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

export function clear(el) {
  while (el.firstChild) el.removeChild(el.firstChild);
  return el;
}

export function announce(message) {
  const region = document.getElementById('announcer');
  if (region) region.textContent = message;
}

const STOP_WORDS = new Set(('a an and are as at be by for from has have in is it its of on or ' +
  'that the this to was were will with what who which whom whose when where why how shall ' +
  'may any all not no between under').split(' '));

/** The words of a query worth highlighting (lower case, deduplicated, longest first). */
export function queryTerms(query) {
  const words = (query.toLowerCase().match(/[\p{L}\p{N}]+/gu) || [])
    .filter((w) => w.length > 1 && !STOP_WORDS.has(w));
  return [...new Set(words)].sort((a, b) => b.length - a.length || (a < b ? -1 : 1));
}

function escapeRegExp(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Text with every occurrence of the query's terms wrapped in <mark>, built from text nodes. */
export function highlighted(text, terms) {
  const frag = document.createDocumentFragment();
  if (!terms.length) {
    frag.append(document.createTextNode(text));
    return frag;
  }
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}])(${terms.map(escapeRegExp).join('|')})(?![\\p{L}\\p{N}])`, 'giu');
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    if (match.index > last) frag.append(document.createTextNode(text.slice(last, match.index)));
    frag.append(h('mark', { class: 'hit' }, match[0]));
    last = match.index + match[0].length;
  }
  if (last < text.length) frag.append(document.createTextNode(text.slice(last)));
  return frag;
}

export function location(item) {
  const parts = [];
  if (item.page !== null && item.page !== undefined) parts.push(`page ${item.page}`);
  if (item.section && item.section.length) parts.push(`section ${item.section.join(' › ')}`);
  if (item.line_start !== undefined) {
    parts.push(item.line_start === item.line_end
      ? `line ${item.line_start}` : `lines ${item.line_start}–${item.line_end}`);
  }
  return parts.join(' · ');
}

export function sourceHash(docId, revision, charStart, charEnd, extra) {
  const params = new URLSearchParams({ doc: docId, rev: revision, s: String(charStart), e: String(charEnd) });
  for (const [k, v] of Object.entries(extra || {})) params.set(k, String(v));
  return `#/source?${params.toString()}`;
}

export function shortHash(value) {
  return value ? `${value.slice(0, 12)}…` : '';
}

export function notice(kind, ...children) {
  return h('div', { class: `notice notice-${kind}`, role: kind === 'error' ? 'alert' : 'status' }, ...children);
}

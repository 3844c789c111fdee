// Expand source: the revision text around a span, through the audited source endpoint, with the
// cited characters highlighted exactly. "Previous / next" read on chunk by chunk.
import { api } from '../api.js';
import { h, clear, notice, location as where, sourceHash, shortHash } from '../dom.js';

const CONTEXT_CHARS = 600;

export function renderSource(root, params) {
  const doc = params.get('doc');
  const rev = params.get('rev');
  const s = Number(params.get('s'));
  const e = Number(params.get('e'));
  if (!doc || !/^[0-9a-f]{64}$/.test(rev || '') || !Number.isInteger(s) || !Number.isInteger(e)) {
    root.append(notice('error', 'This link does not name a passage (document, revision and span).'));
    return null;
  }
  // The span first opened (the cited one) travels along while reading on.
  const cs = params.has('cs') ? Number(params.get('cs')) : s;
  const ce = params.has('ce') ? Number(params.get('ce')) : e;
  const ev = params.get('ev');
  load(root, { doc, rev, s, e, cs, ce, ev });
  return null;
}

async function load(root, p) {
  root.append(h('p', { class: 'loading' }, 'Opening the source…'));
  const query = new URLSearchParams({ char_start: String(p.s), char_end: String(p.e), context: String(CONTEXT_CHARS) });
  let view;
  try {
    view = await api(`/v1/documents/${encodeURIComponent(p.doc)}/revisions/${p.rev}/text?${query}`);
  } catch (err) {
    clear(root);
    root.append(notice('error', err.status === 404
      ? 'This passage is not available to you: the document does not exist, was deleted, or is not shared with you.'
      : `The source could not be opened: ${err.message}`));
    return;
  }
  clear(root);
  const isCited = p.s === p.cs && p.e === p.ce;
  root.append(h('div', { class: 'card source-head' },
    h('h2', null, view.title),
    h('p', { class: 'where', 'data-testid': 'source-location' }, where(view.location)),
    h('p', { class: 'meta' }, `${view.filename} · revision `, h('code', { title: view.revision }, shortHash(view.revision)),
      ` · characters ${view.char_start}–${view.char_end} of ${view.text_length}`),
    view.current ? null : notice('warn', h('strong', null, 'This revision is no longer current. '),
      'The document has been replaced since this passage was cited; the text below is the revision that was cited.'),
    isCited
      ? h('p', { class: 'help' }, p.ev ? `Evidence ${p.ev}: the highlighted characters are exactly the cited span.`
        : 'The highlighted characters are exactly the passage you opened.')
      : h('p', { class: 'help' }, 'Reading on from the cited passage. ',
        h('a', { href: sourceHash(p.doc, p.rev, p.cs, p.ce, p.ev ? { ev: p.ev } : {}) }, 'Back to the cited passage'))));
  const mark = h('mark', { class: isCited ? 'cited' : 'reading', 'data-testid': 'cited' }, view.passage);
  root.append(h('div', { class: 'card source-text', tabindex: '0', role: 'region', 'aria-label': 'Revision text' },
    view.context_start > 0 ? h('span', { class: 'ellipsis', 'aria-hidden': 'true' }, '… ') : null,
    view.context_before, mark, view.context_after,
    view.context_end < view.text_length ? h('span', { class: 'ellipsis', 'aria-hidden': 'true' }, ' …') : null));
  const extra = { cs: p.cs, ce: p.ce };
  if (p.ev) extra.ev = p.ev;
  root.append(h('nav', { class: 'pager', 'aria-label': 'Read on' },
    view.previous ? h('a', { href: sourceHash(p.doc, p.rev, view.previous.char_start, view.previous.char_end, extra) }, 'Previous passage')
      : h('span', { class: 'disabled', 'aria-hidden': 'true' }, 'Previous passage'),
    h('span', { class: 'page-of' }, `${view.location.chunk_ids.length} chunk${view.location.chunk_ids.length === 1 ? '' : 's'}`),
    view.next ? h('a', { href: sourceHash(p.doc, p.rev, view.next.char_start, view.next.char_end, extra) }, 'Next passage')
      : h('span', { class: 'disabled', 'aria-hidden': 'true' }, 'Next passage')));
  mark.scrollIntoView({ block: 'center' });
}

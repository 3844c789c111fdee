// The review grid: agreements × attributes, each cell citing its clause (GET /v1/table, built
// on another branch). When this server does not offer it, the view says so.
import { api, serverOffers } from '../api.js';
import { h, clear, notice, location as where, sourceHash } from '../dom.js';

const DEFAULT_ATTRIBUTES = 'governing_law, expiration_date, renewal_term';
const PAGE_SIZE = 50;

export function renderTable(root, params) {
  const attributes = (params.get('attributes') || DEFAULT_ATTRIBUTES).split(',').map((a) => a.trim()).filter(Boolean);
  const page = Math.max(1, parseInt(params.get('page') || '1', 10) || 1);
  const type = params.get('type') || 'agreement';
  const out = h('section', { 'aria-live': 'polite', 'aria-label': 'Review grid' });
  const form = h('form', { class: 'card', 'aria-label': 'Review grid columns' },
    h('div', { class: 'filter-grid' },
      h('div', { class: 'field' }, h('label', { for: 'grid-type' }, 'Subject type'),
        h('input', { id: 'grid-type', name: 'type', type: 'text', value: type })),
      h('div', { class: 'field field-wide' }, h('label', { for: 'grid-attributes' }, 'Attributes'),
        h('input', { id: 'grid-attributes', name: 'attributes', type: 'text', value: attributes.join(', '), 'aria-describedby': 'grid-attributes-help' }),
        h('p', { id: 'grid-attributes-help', class: 'help' }, 'Comma-separated attribute keys, e.g. governing_law.'))),
    h('button', { type: 'submit' }, 'Show grid'));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const next = new URLSearchParams({ type: form.type.value.trim() || 'agreement', attributes: form.attributes.value });
    location.hash = `#/table?${next}`;
  });
  root.append(form, out);
  load(out, type, attributes, page);
  return null;
}

async function load(out, type, attributes, page) {
  if (!(await serverOffers('/v1/table'))) {
    out.append(notice('info', 'The review grid is not available on this server (it has no /v1/table endpoint).'));
    return;
  }
  const query = new URLSearchParams({ type, page: String(page), page_size: String(PAGE_SIZE) });
  for (const a of attributes) query.append('attribute', a);
  let body;
  try {
    body = await api(`/v1/table?${query}`);
  } catch (err) {
    out.append(notice(err.status === 404 ? 'info' : 'error', err.status === 404
      ? 'The review grid is not available on this server.' : `The grid could not be built: ${err.message}`));
    return;
  }
  clear(out);
  const cols = body.attributes;
  if (!body.rows.length) {
    out.append(notice('info', body.total
      ? `Page ${body.page} is past the end: there are ${body.total} ${body.type} subjects you may read.`
      : `There are no ${body.type} subjects among the documents you may read.`));
    return;
  }
  out.append(h('p', null, `${body.total} ${body.type} subjects · page ${body.page}`), csvLink(body));
  out.append(h('div', { class: 'table-wrap', tabindex: '0', role: 'region', 'aria-label': 'Review grid table' },
    h('table', { class: 'grid review' },
      h('thead', null, h('tr', null, h('th', { scope: 'col' }, 'Agreement'),
        cols.map((c) => h('th', { scope: 'col', title: c }, columnLabel(c))))),
      h('tbody', null, body.rows.map((row) => h('tr', { 'data-subject-id': row.subject_id },
        h('th', { scope: 'row' }, row.name, h('div', { class: 'meta' }, documentLabel(row))),
        cols.map((c) => cell(row.cells[c], c, row))))))));
  const pages = Math.max(1, Math.ceil(body.total / body.page_size));
  if (pages > 1) {
    const link = (n, label) => {
      const next = new URLSearchParams({ type, attributes: attributes.join(','), page: String(n) });
      return h('a', { href: `#/table?${next}` }, label);
    };
    out.append(h('nav', { class: 'pager', 'aria-label': 'Grid pages' },
      body.page > 1 ? link(body.page - 1, 'Previous') : null,
      h('span', { class: 'page-of' }, `Page ${body.page} of ${pages}`),
      body.page < pages ? link(body.page + 1, 'Next') : null));
  }
}

// "governing_law" -> "Governing law"; the key stays in the header's title and in the CSV.
function columnLabel(key) {
  const words = key.replaceAll('_', ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

// The agreement's document: its title, and its id when that says something the title does not.
function documentLabel(row) {
  if (!row.title) return row.doc_id;
  return row.title === row.doc_id ? row.title : `${row.title} · ${row.doc_id}`;
}

const DURATION_UNITS = { Y: 'year', M: 'month', W: 'week', D: 'day' };
// Durations come normalised as ISO 8601 ("P2Y", "P6M"): shown in words, kept raw in the CSV.
export function displayValue(value) {
  const m = /^P(?:(\d+)Y)?(?:(\d+)M)?(?:(\d+)W)?(?:(\d+)D)?$/.exec(value);
  if (!m || value === 'P') return value;
  return ['Y', 'M', 'W', 'D'].map((u, i) => [m[i + 1], u]).filter(([n]) => n)
    .map(([n, u]) => `${Number(n)} ${DURATION_UNITS[u]}${Number(n) === 1 ? '' : 's'}`).join(' ');
}

// The endpoint answers a cell it cannot support as {"value": "not stated", "sufficient": false,
// "evidence": []}: shown as "not stated", never as a value.
function cell(value, attribute, row) {
  if (!value || !value.sufficient || value.value === null || value.value === undefined) {
    return h('td', { class: 'not-stated' }, 'not stated');
  }
  const subject = row.name || row.title;
  return h('td', null, h('span', { class: 'cell-value', 'data-value': value.value }, displayValue(value.value)), ' ',
    (value.evidence || []).map((e) => h('a', {
      class: 'chip', href: sourceHash(e.doc_id, e.revision, e.char_start, e.char_end, { ev: e.id }),
      title: where(e),
      'aria-label': `Source ${e.id} of ${columnLabel(attribute).toLowerCase()} in ${subject}, ${where(e)}`,
    }, `[${e.id}]`)));
}

function csvField(text) {
  const value = String(text ?? '');
  // Quote always; a leading = + - @ is prefixed so a spreadsheet never evaluates document text.
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return `"${safe.replaceAll('"', '""')}"`;
}

export function toCsv(body) {
  const header = ['subject_id', 'title', 'doc_id', ...body.attributes.flatMap((a) => [a, `${a}_evidence`])];
  const lines = [header.map(csvField).join(',')];
  for (const row of body.rows) {
    const cells = body.attributes.flatMap((a) => {
      const c = row.cells[a] || {};
      return [c.value ?? '', (c.evidence || []).map((e) => `${e.doc_id}@${e.revision.slice(0, 12)}:${e.char_start}-${e.char_end}`).join(' ')];
    });
    lines.push([row.subject_id, row.title, row.doc_id, ...cells].map(csvField).join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}

function csvLink(body) {
  const url = URL.createObjectURL(new Blob([toCsv(body)], { type: 'text/csv' }));
  return h('a', { class: 'button-link', href: url, download: `attest-${body.type}-grid-page${body.page}.csv` }, 'Export CSV');
}

// Search: hybrid BM25 + kNN hits with the query's words highlighted. The server returns at most
// 100 hits in a deterministic order (score, then chunk id); the portal pages through them.
import { api } from '../api.js';
import { h, clear, notice, highlighted, queryTerms, location as where, sourceHash, announce } from '../dom.js';

export const PAGE_SIZE = 10;
const MAX_HITS = 100;

// One value per filter: document ids and entity ids may themselves contain commas.
function one(value) {
  const v = (value || '').trim();
  return v ? [v] : [];
}

function field(id, label, value, help) {
  return h('div', { class: 'field' },
    h('label', { for: id }, label),
    h('input', { id, name: id, type: 'text', value: value || '', list: `${id}-options`, autocomplete: 'off',
      'aria-describedby': help ? `${id}-help` : null }),
    h('datalist', { id: `${id}-options` }),
    help ? h('p', { id: `${id}-help`, class: 'help' }, help) : null);
}

function fill(list, options) {
  clear(list).append(...options.map(([value, label]) => h('option', { value, label: label || null })));
}

/** Suggestions for the filters: the caller's collections, documents and registry entities. */
async function loadSuggestions(form) {
  try {
    const [docs, subjects] = await Promise.all([
      api('/v1/documents?limit=200'),
      api('/v1/subjects?limit=200'),
    ]);
    const collections = [...new Set(docs.documents.map((d) => d.collection).filter(Boolean))].sort();
    fill(form.querySelector('#collection-options'), collections.map((c) => [c]));
    fill(form.querySelector('#doc-options'), docs.documents.map((d) => [d.doc_id, d.title]));
    const entities = subjects.subjects.filter((x) => x.type !== 'agreement')
      .sort((a, b) => (a.subject_id < b.subject_id ? -1 : a.subject_id > b.subject_id ? 1 : 0));
    fill(form.querySelector('#entity-options'), entities.map((x) => [x.subject_id, x.name]));
  } catch (_) {
    // Suggestions are a convenience; the fields work without them.
  }
}

export function renderSearch(root, params) {
  const q = params.get('q') || '';
  const page = Math.max(1, parseInt(params.get('page') || '1', 10) || 1);
  const filters = {
    collections: one(params.get('collection')),
    doc_ids: one(params.get('doc')),
    entity_ids: one(params.get('entity')),
  };
  const form = h('form', { class: 'card search-form', role: 'search', 'aria-label': 'Search documents' },
    h('div', { class: 'field field-wide' },
      h('label', { for: 'q' }, 'Search your documents'),
      h('div', { class: 'inline' },
        h('input', { id: 'q', name: 'q', type: 'search', value: q, required: true, maxlength: 2000 }),
        h('button', { type: 'submit' }, 'Search'))),
    h('details', { class: 'filters', open: filters.collections.length || filters.doc_ids.length || filters.entity_ids.length ? true : null },
      h('summary', null, 'Filters'),
      h('div', { class: 'filter-grid' },
        field('collection', 'Collection', filters.collections[0], 'Only this collection.'),
        field('doc', 'Document id', filters.doc_ids[0], 'Only this document (its id, as in Documents).'),
        field('entity', 'Entity id', filters.entity_ids[0], 'Only passages naming this registry entity, e.g. org:acme holdings.'))));
  const filterBox = form.querySelector('details.filters');
  let suggested = false;
  const suggest = () => {
    if (filterBox.open && !suggested) {
      suggested = true;
      loadSuggestions(form);
    }
  };
  filterBox.addEventListener('toggle', suggest);
  suggest();
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const next = new URLSearchParams();
    next.set('q', form.q.value.trim());
    for (const name of ['collection', 'doc', 'entity']) {
      const value = form.elements[name].value.trim();
      if (value) next.set(name, value);
    }
    location.hash = `#/search?${next.toString()}`;
  });
  const results = h('section', { class: 'results', 'aria-labelledby': 'results-title', 'aria-busy': 'false' });
  root.append(form, results);
  if (!q) {
    results.append(h('h2', { id: 'results-title', class: 'visually-hidden' }, 'Results'),
      notice('info', 'Type words from the passage you are looking for, such as ',
        h('q', null, 'termination for convenience'), ' or ', h('q', null, 'governing law'), '.'));
    return null;
  }
  runSearch(results, q, page, filters, params);
  return null;
}

async function runSearch(results, q, page, filters, params) {
  results.setAttribute('aria-busy', 'true');
  results.append(h('p', { class: 'loading' }, 'Searching…'));
  let body;
  try {
    body = await api('/v1/search', { method: 'POST', body: { query: q, k: MAX_HITS, filters } });
  } catch (err) {
    clear(results);
    results.setAttribute('aria-busy', 'false');
    results.append(notice('error', `Search failed: ${err.message}`));
    return;
  }
  clear(results);
  results.setAttribute('aria-busy', 'false');
  const hits = body.hits;
  const pages = Math.max(1, Math.ceil(hits.length / PAGE_SIZE));
  const current = Math.min(page, pages);
  const shown = hits.slice((current - 1) * PAGE_SIZE, current * PAGE_SIZE);
  results.append(h('h2', { id: 'results-title' },
    hits.length ? `${hits.length}${hits.length === MAX_HITS ? '+' : ''} passages for “${q}”` : `No passages for “${q}”`));
  if (!hits.length) {
    results.append(notice('info', h('p', null, 'Nothing you can read matches. Try:'),
      h('ul', null,
        h('li', null, 'fewer or more general words (one clause, not a whole question);'),
        h('li', null, 'removing the collection, document or entity filters;'),
        h('li', null, 'the ', h('a', { href: '#/documents' }, 'Documents'), ' view: a document may still be indexing, or failed;'),
        h('li', null, h('a', { href: `#/ask?${new URLSearchParams({ q }).toString()}` }, 'asking it as a question'), ' instead.'))));
    announce('No results');
    return;
  }
  const terms = queryTerms(q);
  const list = h('ol', { class: 'hits', start: (current - 1) * PAGE_SIZE + 1 });
  for (const hit of shown) {
    list.append(h('li', { class: 'hit card', dataset: { chunkId: hit.chunk_id } },
      h('div', { class: 'hit-head' },
        h('h3', { class: 'hit-title' }, hit.title || hit.doc_id),
        h('span', { class: 'where' }, where(hit))),
      h('p', { class: 'excerpt' }, highlighted(compactBlankLines(hit.text), terms)),
      h('div', { class: 'hit-foot' },
        h('span', { class: 'meta' }, `${hit.doc_id} · chars ${hit.char_start}–${hit.char_end}`),
        h('a', { class: 'button-link', href: sourceHash(hit.doc_id, hit.revision, hit.char_start, hit.char_end) },
          'Expand source', h('span', { class: 'visually-hidden' }, ` of ${hit.title || hit.doc_id}, ${where(hit)}`)))));
  }
  results.append(list);
  if (pages > 1) results.append(pager(current, pages, params));
  announce(`${hits.length} results, page ${current} of ${pages}`);
}

// Page breaks leave runs of empty lines in extracted text; a result list shows at most one.
// (The source view shows the revision text exactly.)
function compactBlankLines(text) {
  return text.replace(/\n[ \t]*(?:\n[ \t]*){2,}/g, '\n\n');
}

function pager(current, pages, params) {
  const link = (n, label) => {
    const next = new URLSearchParams(params);
    next.set('page', String(n));
    return h('a', { href: `#/search?${next.toString()}`, 'aria-label': `${label}, page ${n}` }, label);
  };
  return h('nav', { class: 'pager', 'aria-label': 'Result pages' },
    current > 1 ? link(current - 1, 'Previous') : h('span', { class: 'disabled', 'aria-hidden': 'true' }, 'Previous'),
    h('span', { class: 'page-of' }, `Page ${current} of ${pages}`),
    current < pages ? link(current + 1, 'Next') : h('span', { class: 'disabled', 'aria-hidden': 'true' }, 'Next'));
}

// Documents: upload (one or many, with progress and an ACL), the live status list, revision
// history and delete. The list polls while any document is still being processed.
import { api, uploadFile } from '../api.js';
import { h, clear, notice, shortHash, announce } from '../dom.js';

const POLL_MS = 1000;
const LIMIT = 50;
const TERMINAL = new Set(['indexed', 'failed']);

export function renderDocuments(root, params) {
  const offset = Math.max(0, parseInt(params.get('offset') || '0', 10) || 0);
  const status = h('div', { class: 'uploads', 'aria-live': 'polite' });
  const form = h('form', { class: 'card upload-form', 'aria-label': 'Upload documents' },
    h('h2', null, 'Upload'),
    h('div', { class: 'filter-grid' },
      h('div', { class: 'field' },
        h('label', { for: 'files' }, 'Files'),
        h('input', { id: 'files', name: 'files', type: 'file', multiple: true, required: true,
          accept: '.pdf,.docx,.html,.htm,.md,.markdown,.txt,.eml', 'aria-describedby': 'files-help' }),
        h('p', { id: 'files-help', class: 'help' }, 'PDF (text layer), DOCX, HTML, Markdown, TXT or EML; one or many.')),
      h('div', { class: 'field' },
        h('label', { for: 'acl' }, 'Who may read (ACL)'),
        h('input', { id: 'acl', name: 'acl', type: 'text', 'aria-describedby': 'acl-help' }),
        h('p', { id: 'acl-help', class: 'help' }, 'Principals or groups, comma-separated. Empty: only you.')),
      h('div', { class: 'field' },
        h('label', { for: 'upload-collection' }, 'Collection'),
        h('input', { id: 'upload-collection', name: 'collection', type: 'text' }))),
    h('button', { type: 'submit' }, 'Upload'),
    status);
  const list = h('section', { class: 'doc-list', 'aria-labelledby': 'doc-list-title' });
  root.append(form, list);

  let timer = null;
  let stopped = false;
  let shown = '';
  const refresh = async () => {
    if (stopped) return;
    let body;
    try {
      body = await api(`/v1/documents?offset=${offset}&limit=${LIMIT}`);
    } catch (err) {
      clear(list);
      list.append(notice('error', `The document list could not be loaded: ${err.message}`));
      return;
    }
    if (stopped) return;
    // Re-render only on change, so polling does not steal keyboard focus.
    const snapshot = JSON.stringify(body);
    if (snapshot !== shown) {
      shown = snapshot;
      renderList(list, body, refresh);
    }
    clearTimeout(timer);
    if (body.documents.some((d) => !TERMINAL.has(d.status))) timer = setTimeout(refresh, POLL_MS);
  };

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const files = [...form.files.files];
    if (!files.length) return;
    const fields = { acl: form.acl.value.trim(), collection: form.collection.value.trim() };
    clear(status);
    for (const file of files) {
      const bar = h('progress', { max: '1', value: '0', 'aria-label': `Upload progress of ${file.name}` });
      const line = h('span', { class: 'upload-state' }, 'uploading');
      status.append(h('div', { class: 'upload-row' }, h('span', { class: 'upload-name' }, file.name), bar, line));
      try {
        const accepted = await uploadFile(file, fields, (fraction) => { bar.value = fraction; });
        line.textContent = `received as ${accepted.doc_id}`;
        refresh();
      } catch (err) {
        line.textContent = `refused: ${err.message}`;
        line.classList.add('error-text');
      }
    }
    form.files.value = '';
    announce('Uploads sent; the list shows their status as they are processed.');
    refresh();
  });

  refresh();
  return () => { stopped = true; clearTimeout(timer); };
}

function when(iso) {
  // "2026-11-30T12:20:27.761+00:00" -> "2026-11-30 12:20:27 UTC": the store writes UTC.
  return iso ? `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC` : '';
}

function statusBadge(doc) {
  return h('span', { class: `badge status-${doc.status}`, 'data-testid': 'status' }, doc.status);
}

function renderList(list, body, refresh) {
  const open = new Set([...list.querySelectorAll('details[open]')].map((d) => d.dataset.docId));
  clear(list);
  list.append(h('h2', { id: 'doc-list-title' }, `Your documents (${body.total})`));
  if (!body.documents.length) {
    list.append(notice('info', 'No documents you can read yet. Upload one above; it becomes searchable once its status is “indexed”.'));
    return;
  }
  const rows = body.documents.map((doc) => h('tr', { dataset: { docId: doc.doc_id } },
    h('th', { scope: 'row' }, doc.title || doc.doc_id,
      doc.title && doc.title !== doc.doc_id ? h('div', { class: 'meta' }, doc.doc_id) : null),
    h('td', null, statusBadge(doc), doc.status === 'failed' && doc.error
      ? h('div', { class: 'error-text' }, `${doc.stage ? `${doc.stage}: ` : ''}${doc.error}`)
      : (doc.status !== 'indexed' && doc.stage ? h('div', { class: 'meta' }, doc.stage) : null)),
    h('td', null, doc.collection || '—'),
    h('td', null, doc.acl.join(', ')),
    h('td', null, doc.current_revision ? h('code', { title: doc.current_revision }, shortHash(doc.current_revision)) : '—'),
    h('td', { class: 'nowrap' }, when(doc.updated_at)),
    h('td', null, h('div', { class: 'row-actions' }, history(doc, open.has(doc.doc_id)), deleteButton(doc, refresh)))));
  list.append(h('div', { class: 'table-wrap', tabindex: '0', role: 'region', 'aria-label': 'Documents table' },
    h('table', { class: 'grid' },
      h('thead', null, h('tr', null, ['Document', 'Status', 'Collection', 'ACL', 'Current revision', 'Updated', 'Actions']
        .map((label) => h('th', { scope: 'col' }, label)))),
      h('tbody', null, rows))));
  const { offset, limit, total } = body;
  if (total > limit) {
    list.append(h('nav', { class: 'pager', 'aria-label': 'Document pages' },
      offset > 0 ? h('a', { href: `#/documents?offset=${Math.max(0, offset - limit)}` }, 'Previous') : null,
      h('span', { class: 'page-of' }, `${offset + 1}–${Math.min(total, offset + limit)} of ${total}`),
      offset + limit < total ? h('a', { href: `#/documents?offset=${offset + limit}` }, 'Next') : null));
  }
}

function history(doc, isOpen) {
  const body = h('div', { class: 'history' });
  const details = h('details', { dataset: { docId: doc.doc_id }, open: isOpen || null },
    h('summary', null, 'Revisions', h('span', { class: 'visually-hidden' }, ` of ${doc.title}`)), body);
  const fill = async () => {
    let full;
    try {
      full = await api(`/v1/documents/${encodeURIComponent(doc.doc_id)}`);
    } catch (err) {
      clear(body).append(notice('error', err.message));
      return;
    }
    clear(body).append(h('ol', { class: 'revisions', reversed: true }, full.revisions.map((r) => h('li', null,
      h('code', { title: r.revision }, shortHash(r.revision)),
      r.revision === full.current_revision ? h('span', { class: 'badge badge-ok' }, 'current') : null,
      ` ${r.filename} · ${r.size} bytes · ${r.n_chunks} chunks · ${r.status} · ${when(r.created_at)}`))),
    full.jobs.length ? h('ul', { class: 'jobs' }, full.jobs.map((j) => h('li', null,
      `job ${j.state}${j.stage ? ` (${j.stage})` : ''}${j.error ? `: ${j.error}` : ''} · ${when(j.updated_at)}`))) : null);
  };
  details.addEventListener('toggle', () => { if (details.open) fill(); });
  if (isOpen) fill();
  return details;
}

function deleteButton(doc, refresh) {
  const wrap = h('span', { class: 'delete' });
  const ask = h('button', { type: 'button', class: 'button-danger-outline' }, 'Delete',
    h('span', { class: 'visually-hidden' }, ` ${doc.title}`));
  ask.addEventListener('click', () => {
    const confirm = h('button', { type: 'button', class: 'button-danger' }, `Confirm delete`,
      h('span', { class: 'visually-hidden' }, ` of ${doc.title}`));
    const cancel = h('button', { type: 'button', class: 'button-secondary' }, 'Cancel');
    confirm.addEventListener('click', async () => {
      try {
        await api(`/v1/documents/${encodeURIComponent(doc.doc_id)}`, { method: 'DELETE' });
        announce(`${doc.title} deleted`);
      } catch (err) {
        announce(`Delete failed: ${err.message}`);
      }
      refresh();
    });
    cancel.addEventListener('click', () => { clear(wrap).append(ask); ask.focus(); });
    clear(wrap).append(confirm, cancel);
    confirm.focus();
  });
  wrap.append(ask);
  return wrap;
}

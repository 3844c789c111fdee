// Ask: the evidence report the way an analyst reads it. SUBJECT_NOT_FOUND is an answer (the
// knowledge base does not hold the subject), shown as such and not as an error.
import { api } from '../api.js';
import { h, clear, notice, location as where, sourceHash, shortHash, announce } from '../dom.js';

const STATE_TEXT = {
  CONCLUDED: 'Concluded',
  SUBJECT_NOT_FOUND: 'Subject not found',
};

export function renderAsk(root, params) {
  const q = params.get('q') || '';
  const form = h('form', { class: 'card ask-form', 'aria-label': 'Ask a question' },
    h('label', { for: 'question' }, 'Question'),
    h('textarea', { id: 'question', name: 'question', rows: 3, required: true, maxlength: 2000,
      'aria-describedby': 'question-help' }, q),
    h('p', { id: 'question-help', class: 'help' },
      'Name the subject exactly, e.g. “What law governs the SPONSORSHIP AGREEMENT between A and B?” ',
      'or “Who is the founder of X?”. Attest answers only from documents you can read.'),
    h('button', { type: 'submit' }, 'Ask'));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const question = form.question.value.trim();
    if (!question) return;
    const target = `#/ask?${new URLSearchParams({ q: question }).toString()}`;
    if (location.hash === target) ask(out, question);
    else location.hash = target;
  });
  form.question.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && !event.shiftKey) {
      event.preventDefault();
      form.requestSubmit();
    }
  });
  const out = h('section', { class: 'report-area', 'aria-live': 'polite', 'aria-busy': 'false', 'aria-label': 'Answer' });
  root.append(form, out);
  if (q) ask(out, q);
  return null;
}

async function ask(out, question) {
  clear(out);
  out.setAttribute('aria-busy', 'true');
  out.append(h('p', { class: 'loading' }, 'Collecting evidence…'));
  let report;
  try {
    report = await api('/v1/evidence/query', { method: 'POST', body: { question } });
  } catch (err) {
    clear(out);
    out.setAttribute('aria-busy', 'false');
    out.append(notice('error', `The question could not be run: ${err.message}`));
    return;
  }
  showReport(out, report);
}

/** Render a report into ``out``, timing the DOM work (read by the browser test). */
export function showReport(out, report) {
  const started = performance.now();
  const element = renderReport(report);
  clear(out);
  out.append(element);
  out.setAttribute('aria-busy', 'false');
  // Force layout so the measure includes style and layout, not just node creation.
  void out.getBoundingClientRect().height;
  const elapsed = performance.now() - started;
  element.dataset.renderMs = elapsed.toFixed(2);
  window.attestLastRenderMs = elapsed;
  announce(`${STATE_TEXT[report.state] || report.state}: ${report.sufficient ? 'sufficient evidence' : 'not sufficient'}`);
  return elapsed;
}

function chip(evidence) {
  return h('a', {
    class: 'chip', href: sourceHash(evidence.doc_id, evidence.revision, evidence.char_start, evidence.char_end, { ev: evidence.id }),
    title: `${evidence.title} · ${where(evidence)}`,
  }, `[${evidence.id}]`, h('span', { class: 'visually-hidden' }, ` open source of evidence ${evidence.id}`));
}

function chips(ids, byId) {
  return ids.map((id) => (byId.has(id) ? chip(byId.get(id)) : h('span', { class: 'chip chip-missing' }, `[${id}]`)));
}

function valueText(value) {
  if (!value) return 'no value';
  if (value.value !== undefined && value.value !== null) return String(value.value);
  return JSON.stringify(value);
}

export function renderReport(report) {
  const byId = new Map(report.evidence.map((e) => [e.id, e]));
  const notFound = report.state === 'SUBJECT_NOT_FOUND';
  const root = h('article', { class: `report state-${report.state.toLowerCase()}`, 'aria-labelledby': 'report-title' });
  root.append(h('header', { class: 'report-head card' },
    h('h2', { id: 'report-title' }, report.question),
    h('div', { class: 'signals' },
      h('span', { class: `badge badge-state ${notFound ? 'badge-warn' : 'badge-ok'}`, 'data-testid': 'state' }, report.state),
      h('span', { class: `badge ${report.sufficient ? 'badge-ok' : 'badge-warn'}` }, report.sufficient ? 'sufficient' : 'not sufficient'),
      h('span', { class: `badge badge-conf-${report.confidence}` }, `confidence: ${report.confidence}`),
      report.risk_signals.map((r) => h('span', { class: 'badge badge-risk' }, r.replaceAll('_', ' ')))),
    notFound ? h('p', { class: 'answer not-found' },
      'No subject matching this question is visible to you in the knowledge base. Attest does not ',
      'substitute a similar subject; see the suggested next actions below.') : null));

  if (report.claims.length) {
    root.append(h('section', { class: 'card', 'aria-labelledby': 'findings-title' },
      h('h3', { id: 'findings-title' }, 'Findings'),
      h('ul', { class: 'findings' }, report.claims.map((c) => h('li', null,
        h('span', { class: 'statement' }, c.statement), ' ', chips(c.evidence_ids, byId))))));
  } else if (!notFound) {
    root.append(h('section', { class: 'card', 'aria-labelledby': 'findings-title' },
      h('h3', { id: 'findings-title' }, 'Findings'),
      h('p', null, 'No passage you can read states this; nothing is concluded.')));
  }

  if (report.conflicts.length) {
    root.append(h('section', { class: 'card conflicts', 'aria-labelledby': 'conflicts-title' },
      h('h3', { id: 'conflicts-title' }, 'Conflicts (not resolved)'),
      report.conflicts.map((conflict) => h('div', { class: 'conflict' },
        h('p', { class: 'conflict-of' }, `${conflict.attribute} of ${conflict.subject_id}`),
        h('div', { class: 'side-by-side' }, conflict.values.map((v) => h('div', { class: 'side' },
          h('p', { class: 'side-value' }, valueText(v.value)), chips(v.evidence_ids, byId),
          v.evidence_ids.filter((id) => byId.has(id)).map((id) => h('blockquote', null, byId.get(id).excerpt)))))))));
  }

  if (report.evidence.length) {
    root.append(h('section', { class: 'card', 'aria-labelledby': 'evidence-title' },
      h('h3', { id: 'evidence-title' }, `Evidence (${report.evidence.length})`),
      h('ol', { class: 'evidence' }, report.evidence.map((e) => h('li', { id: `ev-${e.id}` },
        h('div', { class: 'ev-head' }, chip(e), h('strong', null, e.title), h('span', { class: 'where' }, where(e)),
          h('span', { class: `badge badge-conf-${e.confidence}` }, e.confidence)),
        h('blockquote', null, e.excerpt))))));
  }

  if (report.rejected_evidence.length) {
    root.append(h('details', { class: 'card rejected' },
      h('summary', null, `Rejected passages (${report.rejected_evidence.length})`),
      h('ul', null, report.rejected_evidence.map((r) => h('li', null,
        h('span', { class: 'badge badge-risk' }, r.reason), ' ', h('strong', null, r.title), ' ',
        h('span', { class: 'where' }, where(r)), h('blockquote', null, r.excerpt))))));
  }

  if (report.suggested_next_actions.length) {
    root.append(h('section', { class: 'card', 'aria-labelledby': 'actions-title' },
      h('h3', { id: 'actions-title' }, 'Suggested next actions'),
      h('ul', { class: 'actions' }, report.suggested_next_actions.map((a) => h('li', null, a, ' ', actionLink(a, report, byId))))));
  }

  root.append(h('section', { class: 'card trace', 'aria-labelledby': 'trace-title' },
    h('h3', { id: 'trace-title' }, 'State trace'),
    h('ol', null, report.trace.map((t) => h('li', null, h('code', null, t.state), ' ', t.detail)))),
  h('p', { class: 'bundle' }, 'Evidence bundle hash ',
    h('code', { title: report.evidence_bundle_hash, 'data-testid': 'bundle-hash' }, report.evidence_bundle_hash),
    ' · request ', h('code', null, report.request_id)));
  return root;
}

function actionLink(action, report, byId) {
  const cited = [...action.matchAll(/\bE\d+\b/g)].map((m) => m[0]).filter((id) => byId.has(id));
  if (cited.length) return chips([...new Set(cited)], byId);
  if (/^Ingest\b/.test(action)) return h('a', { href: '#/documents' }, 'Go to Documents');
  if (/^(Rephrase|The question was not understood)/.test(action)) return h('a', { href: '#/ask' }, 'Ask again');
  if (/^No subject named/.test(action)) {
    const name = (action.match(/'([^']+)'|"([^"]+)"/) || [])[1];
    if (name) return h('a', { href: `#/search?${new URLSearchParams({ q: name }).toString()}` }, `Search for “${name}”`);
  }
  return h('a', { href: `#/search?${new URLSearchParams({ q: report.question }).toString()}` }, 'Search the passages');
}

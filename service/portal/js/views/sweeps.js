// Sweeps: the sweeps the caller may run (GET /v1/sweeps: admins and each sweep's principal),
// their runs (GET /v1/sweeps/{name}/runs, newest first) and each run's HTML report.
import { api } from '../api.js';
import { h, clear, notice } from '../dom.js';

export function renderSweeps(root, params) {
  const out = h('section', { 'aria-live': 'polite', 'aria-label': 'Sweeps' });
  root.append(out);
  load(out, params.get('sweep'));
  return null;
}

function names(body) {
  const items = Array.isArray(body) ? body : (body.sweeps || []);
  return items.map((s) => (typeof s === 'string' ? { name: s } : s));
}

async function load(out, selected) {
  let sweeps;
  try {
    sweeps = names(await api('/v1/sweeps'));
  } catch (err) {
    out.append(notice(err.status === 404 ? 'info' : 'error', err.status === 404
      ? 'Sweeps are not available on this server.' : `Sweeps could not be listed: ${err.message}`));
    return;
  }
  clear(out);
  if (!sweeps.length) {
    out.append(notice('info', 'No sweeps are defined on this server.'));
    return;
  }
  out.append(h('ul', { class: 'sweep-list' }, sweeps.map((s) => h('li', null,
    h('a', { href: `#/sweeps?${new URLSearchParams({ sweep: s.name })}`, 'aria-current': s.name === selected ? 'true' : null }, s.name),
    s.description ? ` — ${s.description}` : ''))));
  if (selected) out.append(await runs(selected));
}

async function runs(name) {
  const box = h('section', { class: 'card', 'aria-labelledby': 'runs-title' }, h('h2', { id: 'runs-title' }, `Runs of ${name}`));
  let body;
  try {
    body = await api(`/v1/sweeps/${encodeURIComponent(name)}/runs`);
  } catch (err) {
    box.append(notice('error', `Runs could not be listed: ${err.message}`));
    return box;
  }
  const items = Array.isArray(body) ? body : (body.runs || []);
  if (!items.length) {
    box.append(notice('info', 'This sweep has not run yet.'));
    return box;
  }
  box.append(h('ul', { class: 'runs' }, items.map((run) => {
    const id = run.run_id || run.id;
    const button = h('button', { type: 'button', class: 'button-secondary' }, 'HTML report',
      h('span', { class: 'visually-hidden' }, ` of run ${id}`));
    const slot = h('span');
    button.addEventListener('click', async () => {
      try {
        const html = await api(`/v1/sweeps/${encodeURIComponent(name)}/runs/${encodeURIComponent(id)}`, { accept: 'text/html' });
        const url = URL.createObjectURL(new Blob([html], { type: 'text/html' }));
        clear(slot).append(h('a', { href: url, download: `sweep-${name}-${id}.html` }, 'Download the report'));
      } catch (err) {
        clear(slot).append(` ${err.message}`);
      }
    });
    const findings = typeof run.findings === 'number' ? `${run.findings} finding${run.findings === 1 ? '' : 's'}` : '';
    // started_at is ISO 8601 UTC ("2026-11-30T13:44:35.481+00:00"): shown to the minute.
    const started = run.started_at
      ? h('time', { datetime: run.started_at }, `${run.started_at.slice(0, 10)} ${run.started_at.slice(11, 16)} UTC`) : null;
    return h('li', null, h('code', null, id),
      h('span', { class: `badge ${run.status === 'clean' ? 'badge-ok' : 'badge-warn'}` }, run.status || 'unknown'),
      run.is_baseline ? h('span', { class: 'badge' }, 'baseline') : null,
      h('span', { class: 'run-meta' }, started, started && findings ? ' · ' : '', findings), button, slot);
  })));
  return box;
}

// The portal's entry point: sign-in, who-am-I, and a hash router over the views.
import { api, auth, setUnauthorizedHandler } from './api.js';
import { h, clear, notice, announce } from './dom.js';
import { renderSearch } from './views/search.js';
import { renderAsk } from './views/ask.js';
import { renderSource } from './views/source.js';
import { renderDocuments } from './views/documents.js';
import { renderTable } from './views/table.js';
import { renderSweeps } from './views/sweeps.js';

const VIEWS = {
  search: { title: 'Search', render: renderSearch },
  ask: { title: 'Ask', render: renderAsk },
  source: { title: 'Source', render: renderSource },
  documents: { title: 'Documents', render: renderDocuments },
  table: { title: 'Review grid', render: renderTable },
  sweeps: { title: 'Sweeps', render: renderSweeps },
};

const state = { me: null, cleanup: null, signInMessage: null };

function parseHash() {
  const raw = location.hash.replace(/^#\/?/, '');
  const [name, query = ''] = raw.split('?');
  return { name: name || 'search', params: new URLSearchParams(query) };
}

function showIdentity(me) {
  const nav = document.getElementById('nav');
  const who = document.getElementById('whoami');
  nav.hidden = !me;
  who.hidden = !me;
  if (!me) return;
  document.getElementById('who-principal').textContent = me.principal;
  document.getElementById('who-groups').textContent = me.groups.length
    ? `groups: ${me.groups.join(', ')}` : 'no groups';
  document.getElementById('who-admin').hidden = !me.admin;
}

function signOut(message) {
  auth.clear();
  state.me = null;
  state.signInMessage = message || null;
  showIdentity(null);
  if (location.hash && location.hash !== '#/signin') {
    history.replaceState(null, '', '#/signin');
  }
  route();
}

function renderSignIn(main) {
  document.title = 'Sign in · Attest';
  const input = h('input', {
    id: 'api-key', name: 'api-key', type: 'password', autocomplete: 'off', required: true,
    spellcheck: 'false', 'aria-describedby': 'api-key-help',
  });
  const error = h('div', { id: 'signin-error' });
  const form = h('form', { class: 'card signin', 'aria-labelledby': 'view-title' },
    h('label', { for: 'api-key' }, 'API key'),
    input,
    h('p', { id: 'api-key-help', class: 'help' },
      'Your key is kept in this browser tab only (session storage) and sent as a bearer token. ' +
      'Closing the tab or signing out forgets it.'),
    h('button', { type: 'submit' }, 'Sign in'),
    error);
  if (state.signInMessage) error.append(notice('info', state.signInMessage));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    clear(error);
    const key = input.value.trim();
    if (!key) return;
    try {
      const me = await api('/v1/me', { key });
      auth.set(key);
      state.me = me;
      state.signInMessage = null;
      showIdentity(me);
      // Back to the view that asked for a key (a shared link), else to search.
      const wanted = VIEWS[parseHash().name] ? location.hash : '#/search';
      if (location.hash === wanted) route();
      else location.hash = wanted;
    } catch (err) {
      error.append(notice('error', err.status === 401
        ? 'That API key was not accepted. Check it and try again.'
        : `Sign-in failed: ${err.message}`));
      input.focus();
    }
  });
  main.append(h('h1', { id: 'view-title', tabindex: '-1' }, 'Sign in to Attest'), form);
  input.focus();
}

async function route() {
  const main = document.getElementById('main');
  if (state.cleanup) {
    state.cleanup();
    state.cleanup = null;
  }
  clear(main);
  if (!auth.key()) {
    showIdentity(null);
    renderSignIn(main);
    return;
  }
  if (!state.me) {
    try {
      state.me = await api('/v1/me');
    } catch (err) {
      if (err.status !== 401) main.append(notice('error', `Cannot reach the server: ${err.message}`));
      return;
    }
  }
  showIdentity(state.me);
  let { name, params } = parseHash();
  if (!VIEWS[name]) name = 'search';
  const view = VIEWS[name];
  document.title = `${view.title} · Attest`;
  for (const link of document.querySelectorAll('#nav a')) {
    if (link.dataset.view === name) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
  const heading = h('h1', { id: 'view-title', tabindex: '-1' }, view.title);
  main.append(heading);
  const container = h('div', { class: `view view-${name}` });
  main.append(container);
  state.cleanup = view.render(container, params, { me: state.me }) || null;
  if (document.activeElement === document.body || document.activeElement === null) heading.focus();
  announce(`${view.title} view`);
}

setUnauthorizedHandler(() => signOut('Your API key was refused by the server; sign in again.'));
document.getElementById('signout').addEventListener('click', () => signOut('You are signed out.'));
// The skip link must not change the hash: the hash is the router's.
document.querySelector('.skip-link').addEventListener('click', (event) => {
  event.preventDefault();
  document.getElementById('main').focus();
});
window.addEventListener('hashchange', () => {
  route();
  document.getElementById('view-title')?.focus();
});
route();

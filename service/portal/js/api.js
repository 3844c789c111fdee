// The API client. The key lives in sessionStorage only (gone when the tab closes), is sent as a
// bearer token, and never appears in a URL or a cookie.

const KEY = 'attest.apiKey';

export class ApiError extends Error {
  constructor(status, code, message, requestId) {
    super(message);
    this.status = status;
    this.code = code;
    this.requestId = requestId;
  }
}

export const auth = {
  key: () => sessionStorage.getItem(KEY),
  set: (key) => sessionStorage.setItem(KEY, key),
  clear: () => sessionStorage.removeItem(KEY),
};

let onUnauthorized = () => {};
export function setUnauthorizedHandler(fn) { onUnauthorized = fn; }

async function failure(response) {
  let code = 'http_error';
  let message = `${response.status} ${response.statusText}`;
  try {
    const body = await response.json();
    if (body && body.error) {
      code = body.error.code;
      message = body.error.message;
    }
  } catch (_) { /* not JSON: keep the status line */ }
  return new ApiError(response.status, code, message, response.headers.get('X-Request-ID'));
}

/** fetch with the bearer key; JSON in, JSON out (or text when asked). */
export async function api(path, { method = 'GET', body, key, accept = 'application/json', raw = false } = {}) {
  const headers = { Accept: accept };
  const token = key || auth.key();
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: 'omit',
    cache: 'no-store',
  });
  if (!response.ok) {
    const error = await failure(response);
    if (response.status === 401 && !key) onUnauthorized(error);
    throw error;
  }
  if (raw) return response;
  return accept === 'application/json' ? response.json() : response.text();
}

let routes = null;
/** Which API paths this server offers, from its OpenAPI description (read once, no key). */
export async function serverOffers(path) {
  if (routes === null) {
    const response = await fetch('/openapi.json', { credentials: 'omit' });
    routes = response.ok ? Object.keys((await response.json()).paths || {}) : [];
  }
  return routes.includes(path);
}

/** Upload one file with progress events (fetch cannot report upload progress). */
export function uploadFile(file, fields, onProgress) {
  return new Promise((resolve, reject) => {
    const form = new FormData();
    form.append('file', file, file.name);
    for (const [k, v] of Object.entries(fields)) if (v) form.append(k, v);
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/v1/documents');
    xhr.setRequestHeader('Authorization', `Bearer ${auth.key()}`);
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.withCredentials = false;
    xhr.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    });
    xhr.addEventListener('load', () => {
      let body = null;
      try { body = JSON.parse(xhr.responseText); } catch (_) { /* keep null */ }
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress(1);
        resolve(body);
      } else {
        const err = body && body.error ? body.error : { code: 'http_error', message: `${xhr.status}` };
        const error = new ApiError(xhr.status, err.code, err.message, xhr.getResponseHeader('X-Request-ID'));
        if (xhr.status === 401) onUnauthorized(error);
        reject(error);
      }
    });
    xhr.addEventListener('error', () => reject(new ApiError(0, 'network_error', 'the upload could not reach the server')));
    xhr.send(form);
  });
}

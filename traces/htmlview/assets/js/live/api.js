// The server's routes, for the live page: every answer is JSON, and an
// error's text (data.error) is shown as text, never as HTML.

export function createApi(token) {
  async function call(method, path, body, type) {
    const headers = {};
    if (method === 'POST' && token) headers['Authorization'] = 'Bearer ' + token;
    if (type) headers['Content-Type'] = type;
    let resp;
    try {
      resp = await fetch(path, { method, headers, body, cache: 'no-store', credentials: 'omit' });
    } catch (e) {
      return { ok: false, status: 0, data: { error: String(e && e.message || e) } };
    }
    let data = {};
    if (resp.status !== 204) {
      try { data = await resp.json(); } catch (e) { data = { error: resp.status + ' ' + resp.statusText }; }
    }
    return { ok: resp.ok, status: resp.status, data };
  }
  return {
    get: (path) => call('GET', path),
    post: (path, body, type) => call('POST', path, body, type),
    postJSON: (path, value) => call('POST', path, JSON.stringify(value), 'application/json'),
  };
}

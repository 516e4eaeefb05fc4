// The control token: it comes in the URL's fragment (#token=...), which no
// browser sends to a server nor puts in a Referer. The page keeps it for
// this tab (sessionStorage, so a reload keeps control) and takes it out of
// the address bar, where the timeline keeps its own state and where a
// screen shared with the class would show it.

const KEY = 'kubeloom-token';

export function readToken(loc = window.location, storage = window.sessionStorage) {
  const hash = loc.hash.replace(/^#/, '');
  const parts = hash ? hash.split('&') : [];
  const rest = [];
  let token = '';
  for (const p of parts) {
    if (p.startsWith('token=')) token = decodeURIComponent(p.slice(6));
    else rest.push(p);
  }
  if (token) {
    try { storage.setItem(KEY, token); } catch (e) { /* storage off: control lasts until a reload */ }
    const url = loc.pathname + loc.search + (rest.length ? '#' + rest.join('&') : '');
    window.history.replaceState(null, '', url);
    return token;
  }
  try { return storage.getItem(KEY) || ''; } catch (e) { return ''; }
}

export function forgetToken(storage = window.sessionStorage) {
  try { storage.removeItem(KEY); } catch (e) { /* nothing kept */ }
}

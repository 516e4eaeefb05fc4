// The URL fragment: what the view shows, kept in the URL when the page
// is asked to (the export page; not the live page, whose URL is the
// server's).
import { api } from './api.js';
import { D, groupByKey, groups } from './data.js';
import { defaultOpen, flipped, query } from './layout.js';
import { tAt, view, W } from './view.js';

let enabled = false;
// useHash turns keeping the view in the fragment on or off.
export const useHash = (on) => { enabled = !!on; };

// The fragment keeps what a teacher bookmarks: the step, the visible
// window (µs), the groups opened (or, in a small recording, closed), the
// search and the language:
// #step=42&t=1200000,3400000&open=cm-0%2Fevents,node-1%2Fpod%20workers&lang=zh
export function hashString() {
  const p = [];
  if (api.step >= 0) p.push('step=' + api.step);
  if (!view.fitted) p.push('t=' + Math.round(view.t0) + ',' + Math.round(tAt(W)));
  if (flipped.size) {
    const keys = [...flipped].map((i) => encodeURIComponent(groups[i].key)).sort();
    p.push((defaultOpen ? 'shut=' : 'open=') + keys.join(','));
  }
  if (query) p.push('q=' + encodeURIComponent(query));
  if (api.lang !== D.langs[0].code) p.push('lang=' + encodeURIComponent(api.lang));
  return p.length ? '#' + p.join('&') : '';
}

let hashTimer = 0;
export function saveHash() {
  clearTimeout(hashTimer);
  hashTimer = 0;
  if (!api.ready || !enabled) return;
  const h = hashString();
  if (location.hash === h || (!h && !location.hash)) return;
  try {
    history.replaceState(null, '', h || location.pathname + location.search);
  } catch (e) { /* some browsers refuse it for file: URLs; the fragment is a convenience */ }
}
// saveHashSoon saves it once the view has settled: browsers limit how
// often a page may replace its URL.
export function saveHashSoon() {
  if (!api.ready || !enabled) return;
  clearTimeout(hashTimer);
  hashTimer = setTimeout(saveHash, 150);
}

export function loadHash() {
  const out = { step: -1, lang: D.langs[0].code, t: null, flip: [], q: '' };
  if (!enabled) return out;
  for (const part of location.hash.replace(/^#/, '').split('&')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const k = part.slice(0, eq), v = part.slice(eq + 1);
    let d = v;
    try { d = decodeURIComponent(v); } catch (e) { /* keep it as it is */ }
    switch (k) {
      case 'step': { const n = parseInt(v, 10); if (!isNaN(n)) out.step = n; break; }
      case 'lang': out.lang = d; break;
      case 't': {
        const [a, b] = v.split(',').map(Number);
        if (isFinite(a) && isFinite(b) && b > a) out.t = [a, b];
        break;
      }
      case 'open': case 'shut':
        if ((k === 'open') !== defaultOpen) {
          for (const key of v.split(',')) {
            let name = key;
            try { name = decodeURIComponent(key); } catch (e) { /* as it is */ }
            const g = groupByKey.get(name);
            if (g) out.flip.push(g);
          }
        }
        break;
      case 'q': out.q = d; break;
    }
  }
  return out;
}

// The pod startup figures (traces/podstartup, D.podStarts), which the
// details panel shows under its hint when nothing is selected: how long
// each pod took from its create to its scheduling to the first status
// write that said Running, as `kubeloom replay --latency` prints them
// (rounded as it rounds them before they come: podstarts.go).
import { D } from './data.js';
import { el } from './dom.js';
import { fmtDur } from './format.js';
import { msg } from './words.js';

const INTERVALS = ['createScheduled', 'scheduledRunning', 'createRunning'];

const w = (k, args) => msg('latency.' + k, args);

// rows are a figures row's three lines: its instance on the first.
function rows(r) {
  return r.stats.map((s, i) => el('tr', null,
    el('td', null, i === 0 ? (r.in || w('all')) : ''),
    el('td', null, w(INTERVALS[i])),
    el('td', null, s[0]),
    s.slice(1).map((us) => el('td', null, s[0] ? fmtDur(us) : '-'))));
}

function table(rs) {
  const head = el('tr', null, ['instance', 'interval', 'pods'].map((k) => el('th', null, w(k))),
    ['P50', 'P90', 'P99', 'MAX'].map((k) => el('th', null, k)));
  return el('table', { class: 'podstarts' }, head, rs.map(rows));
}

const EXCLUDED = ['static', 'noCreate', 'boundAtCreate', 'notScheduled', 'notRunning'];

// podStarts is the section, or nothing for a page without the figures
// (data written before them) or a recording with no pod at all (a
// controller-manager alone): a section saying "none" would only be noise.
export function podStarts() {
  const p = D.podStarts;
  if (!p || (!p.pods && !EXCLUDED.some((k) => p[k]))) return [];
  const out = [el('h3', null, w('heading')), el('p', { class: 'hint' }, w('title', { pods: p.pods }))];
  if (!p.pods) return [out, el('p', null, w('none'))];
  out.push(table(p.rows.slice(0, 1)));
  if (p.rows.length > 1) {
    // One kubelet's rows per node: a hundred of them stay folded.
    out.push(el('details', { class: 'podstarts-nodes' }, el('summary', null, w('perInstance', { n: p.rows.length - 1 })),
      table(p.rows.slice(1))));
  }
  for (const k of EXCLUDED) {
    if (p[k]) out.push(el('p', { class: 'hint' }, w(k, { n: p[k] })));
  }
  return out;
}

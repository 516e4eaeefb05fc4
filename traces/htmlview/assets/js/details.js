// The details panel: what is under the pointer, or was clicked.
import { attr, CA, D, EV, groupPath, groups, instName, IT, KINDS, lanes, markName, S, valueText } from './data.js';
import { $ } from './dom.js';
import { esc, fmtDur, fmtOff } from './format.js';
import { isOpen, matches } from './layout.js';
import { msg } from './words.js';

function row(k, v, raw) {
  return `<tr><td>${esc(k)}</td><td>${raw ? v : esc(v)}</td></tr>`;
}

function attrRows(set) {
  const a = D.attrs[set];
  let out = '';
  for (let i = 0; i < a.length; i += 2) out += row(S[a[i]], `<code>${esc(valueText(a[i + 1]))}</code>`, true);
  return out;
}

// running is whether attribute set i is a span of a live run still going
// on, cut at the run's current instant (kubeloom.running).
const running = (i) => attr(i, 'kubeloom.running') === 'true';

function detailsHTML(h) {
  const f = (k) => msg('field.' + k);
  if (!h) return `<p class="hint">${esc(msg('detailsHint'))}</p>`;
  if (h.kind === 6) {
    const inst = D.instances[h.inst];
    return `<h2><span class="kind">${esc(msg('kinds.instance'))}</span>${esc(S[inst.name])}</h2><table>` +
      row('service.name', S[inst.service]) + row('service.instance.id', S[inst.id]) + row(f('lanes'), inst.count) + '</table>';
  }
  if (h.kind === 7) {
    const g = groups[h.g];
    let it = 0, ca = 0, ev = 0;
    for (let li = g.first; li < g.first + g.count; li++) {
      it += lanes[li].it.length / IT; ca += lanes[li].calls.length / CA; ev += lanes[li].events.length / EV;
    }
    let out = `<h2><span class="kind">${esc(msg('kinds.group'))}</span>${esc(g.name)}</h2><table>`;
    out += row(f('instance'), instName(g.inst)) + row(f('key'), g.key) + row(f('lanes'), g.count);
    if (g.kids.length) out += row(f('families'), g.kids.map((k) => groups[k].name).join(', '));
    out += row(f('marks'), msg('counts', { iterations: it, calls: ca, events: ev })) + '</table>';
    if (!matches) out += `<p class="hint">${esc(msg(isOpen(g) ? 'groupHint.open' : 'groupHint.closed'))}</p>`;
    return out;
  }
  const l = lanes[h.li];
  const inst = instName(l.inst);
  const where = groupPath(l);
  let out = '';
  if (h.kind === 5) {
    out += `<h2><span class="kind">${esc(msg('kinds.goroutine'))}</span>${esc(l.label)}</h2><table>`;
    out += row(f('instance'), inst);
    if (where) out += row(f('group'), where);
    out += row(f('goroutine'), l.g);
    if (l.kind) out += row(f('kind'), l.kind);
    if (l.period) out += row(f('period'), fmtDur(l.period));
    out += row(f('start'), fmtOff(l.start));
    // A goroutine of a live run that has not returned yet ends, for now, at
    // the run's current instant.
    const note = l.running ? msg('stillRunning') : l.open ? msg('open') : '';
    out += row(f('end'), note ? fmtOff(l.end) + ' (' + note + ')' : fmtOff(l.end));
    out += row(f('duration'), fmtDur(l.end - l.start));
    out += row(f('marks'), msg('counts', { iterations: l.it.length / IT, calls: l.calls.length / CA, events: l.events.length / EV }));
    out += '</table>';
    const set = attrRows(l.raw.attrs);
    if (set) out += `<h3>${esc(f('attributes'))}</h3><table>${set}</table>`;
    return out;
  }
  const name = markName(l, h.kind, h.m);
  const [s, e] = h.span;
  out += `<h2><span class="kind k${h.kind}">${esc(msg('kinds.' + KINDS[h.kind]))}</span>${esc(name)}</h2><table>`;
  out += row(f('instance'), inst) + row(f('lane'), l.label);
  if (where) out += row(f('group'), where);
  let set = 0;
  if (h.kind === 3) {
    out += row(f('at'), fmtOff(s));
    set = l.events[h.m * EV + 2];
  } else {
    set = h.kind === 1 ? l.it[h.m * IT + 5] : l.calls[h.m * CA + 3];
    const end = running(set) ? fmtOff(e) + ' (' + msg('stillRunning') + ')' : fmtOff(e);
    out += row(f('start'), fmtOff(s)) + row(f('end'), end) + row(f('duration'), fmtDur(e - s));
    if (h.kind === 1) {
      const o = h.m * IT;
      out += row(f('iteration'), l.it[o + 3]);
      if (l.it[o + 4]) out += row(f('skipped'), l.it[o + 4]);
    }
  }
  out += '</table>';
  if (h.count > 1) out += `<p class="hint">${esc(msg('more', { n: h.count - 1 }))}</p>`;
  const a = attrRows(set);
  if (a) out += `<h3>${esc(f('attributes'))}</h3><table>${a}</table>`;
  return out;
}

// sel is what the panel shows: the mark (row, instance, group) under the
// pointer, and the one clicked, which stays until the next click.
export const sel = { hover: null, pinned: null };
export function showDetails() {
  $('details').innerHTML = detailsHTML(sel.pinned || sel.hover);
}

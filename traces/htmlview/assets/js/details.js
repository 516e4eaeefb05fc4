// The details panel: what is under the pointer, or was clicked.
import { attr, CA, D, EV, groupPath, groups, instName, IT, KINDS, lanes, markName, S, valueText } from './data.js';
import { $, el } from './dom.js';
import { fmtDur, fmtOff } from './format.js';
import { isOpen, matches } from './layout.js';
import { podStarts } from './podstarts.js';
import { msg } from './words.js';

// row is a row of a details table: k, and v (text, a number or a node).
const row = (k, v) => el('tr', null, el('td', null, k), el('td', null, v));

function attrRows(set) {
  const a = D.attrs[set], out = [];
  for (let i = 0; i < a.length; i += 2) out.push(row(S[a[i]], el('code', null, valueText(a[i + 1]))));
  return out;
}

// attrTable is an attribute set's rows under their heading, or nothing.
function attrTable(set) {
  const rows = attrRows(set);
  return rows.length ? [el('h3', null, msg('field.attributes')), el('table', null, rows)] : [];
}

// heading is a details or story heading: what the thing is, then its name.
export const heading = (kindClass, kind, name) => el('h2', null, el('span', { class: kindClass }, kind), name);

// running is whether attribute set i is a span of a live run still going
// on, cut at the run's current instant (kubeloom.running).
const running = (i) => attr(i, 'kubeloom.running') === 'true';

// details is what the panel shows of h (a hit: hit.js), as nodes.
function details(h) {
  const f = (k) => msg('field.' + k);
  if (!h) return [el('p', { class: 'hint' }, msg('detailsHint')), podStarts()];
  if (h.kind === 6) {
    const inst = D.instances[h.inst];
    return [heading('kind', msg('kinds.instance'), S[inst.name]), el('table', null,
      row('service.name', S[inst.service]), row('service.instance.id', S[inst.id]), row(f('lanes'), inst.count))];
  }
  if (h.kind === 7) {
    const g = groups[h.g];
    let it = 0, ca = 0, ev = 0;
    for (let li = g.first; li < g.first + g.count; li++) {
      it += lanes[li].it.length / IT; ca += lanes[li].calls.length / CA; ev += lanes[li].events.length / EV;
    }
    return [heading('kind', msg('kinds.group'), g.name), el('table', null,
      row(f('instance'), instName(g.inst)), row(f('key'), g.key), row(f('lanes'), g.count),
      g.kids.length && row(f('families'), g.kids.map((k) => groups[k].name).join(', ')),
      row(f('marks'), msg('counts', { iterations: it, calls: ca, events: ev }))),
    !matches && el('p', { class: 'hint' }, msg(isOpen(g) ? 'groupHint.open' : 'groupHint.closed'))];
  }
  const l = lanes[h.li];
  const inst = instName(l.inst);
  const where = groupPath(l);
  if (h.kind === 5) {
    // A goroutine of a live run that has not returned yet ends, for now, at
    // the run's current instant.
    const note = l.running ? msg('stillRunning') : l.open ? msg('open') : '';
    return [heading('kind', msg('kinds.goroutine'), l.label), el('table', null,
      row(f('instance'), inst),
      where && row(f('group'), where),
      row(f('goroutine'), l.g),
      l.kind && row(f('kind'), l.kind),
      l.period && row(f('period'), fmtDur(l.period)),
      row(f('start'), fmtOff(l.start)),
      row(f('end'), note ? fmtOff(l.end) + ' (' + note + ')' : fmtOff(l.end)),
      row(f('duration'), fmtDur(l.end - l.start)),
      row(f('marks'), msg('counts', { iterations: l.it.length / IT, calls: l.calls.length / CA, events: l.events.length / EV }))),
    attrTable(l.raw.attrs)];
  }
  const [s, e] = h.span;
  const rows = [row(f('instance'), inst), row(f('lane'), l.label), where && row(f('group'), where)];
  let set = 0;
  if (h.kind === 3) {
    rows.push(row(f('at'), fmtOff(s)));
    set = l.events[h.m * EV + 2];
  } else {
    set = h.kind === 1 ? l.it[h.m * IT + 5] : l.calls[h.m * CA + 3];
    const end = running(set) ? fmtOff(e) + ' (' + msg('stillRunning') + ')' : fmtOff(e);
    rows.push(row(f('start'), fmtOff(s)), row(f('end'), end), row(f('duration'), fmtDur(e - s)));
    if (h.kind === 1) {
      const o = h.m * IT;
      rows.push(row(f('iteration'), l.it[o + 3]));
      if (l.it[o + 4]) rows.push(row(f('skipped'), l.it[o + 4]));
    }
  }
  return [heading('kind k' + h.kind, msg('kinds.' + KINDS[h.kind]), markName(l, h.kind, h.m)), el('table', null, rows),
    h.count > 1 && el('p', { class: 'hint' }, msg('more', { n: h.count - 1 })),
    attrTable(set)];
}

// sel is what the panel shows: the mark (row, instance, group) under the
// pointer, and the one clicked, which stays until the next click.
export const sel = { hover: null, pinned: null };
export function showDetails() {
  $('details').replaceChildren(...details(sel.pinned || sel.hover).flat(Infinity).filter(Boolean));
}

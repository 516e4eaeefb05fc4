// The panel of a comparison (kubeloom diff --format html): what differs
// between A and B, as the text report says it (the families, the startup
// steps, the chains from an action to its first effect, each figure with
// A's value, B's and the change), every row a button that jumps to its
// lane: unfolds its groups, scrolls it into view and makes its first step
// the current one. Text from the recordings goes in as text nodes (el).
import { component, D, family, lanes, nSteps, ST } from './data.js';
import { $, el } from './dom.js';
import { regroup, search } from './folding.js';
import { fmtDur } from './format.js';
import { matches, setOpen } from './layout.js';
import { go, revealRow } from './story.js';
import { changed } from './view.js';
import { msg } from './words.js';

// showDiff fills #diff from D.diff (nothing on an export's page).
export function showDiff() {
  const box = $('diff');
  if (!box) return;
  const dd = D.diff;
  box.hidden = !dd;
  box.replaceChildren();
  if (!dd) return;
  const rows = [
    ...section('families', dd.families.filter(differs).map(familyRow)),
    ...section('steps', dd.steps.filter(differs).map(stepRow)),
    ...section('chains', dd.chains.filter(differs).map(chainRow)),
  ];
  const n = dd.families.filter(differs).length + dd.steps.filter(differs).length + dd.chains.filter(differs).length;
  box.append(
    el('h2', null, msg('diff.title')),
    el('p', { class: 'sides' }, el('b', { class: 'side-a' }, 'A'), ' ', dd.names[0], el('br'), el('b', { class: 'side-b' }, 'B'), ' ', dd.names[1]),
    el('p', { class: 'hint' }, n ? msg('diff.count', { n }) : msg('diff.none')),
    ...rows,
  );
}

const differs = (x) => x.differs.length > 0;

function section(key, items) {
  return items.length ? [el('h3', null, msg('diff.' + key)), el('ul', { class: 'diff-list' }, items)] : [];
}

// what is the page's word for one of diff.Report's Differs.
const what = (d) => msg('diff.what.' + d.replace(/ (\w)/g, (_, c) => c.toUpperCase()));

// item is a row of the panel: a button to its lane, A's lane if it has
// one, else B's.
function item(role, name, lane, lines) {
  const li = lane[0] >= 0 ? lane[0] : lane[1];
  const b = el('button', { type: 'button', class: 'diff-row', title: msg('diff.jump') },
    el('span', { class: 'diff-name' }, name), ' ', el('span', { class: 'diff-role' }, role), lines);
  if (li >= 0) {
    b.dataset.lane = String(li);
    b.addEventListener('click', () => jump(li));
  } else b.disabled = true;
  return el('li', null, b);
}

// figure is one line: what, A's value, B's and the change.
const figure = (w, a, b, change) => el('span', { class: 'diff-fig' }, el('span', { class: 'diff-what' }, w), ' ',
  el('span', { class: 'side-a' }, a), ' → ', el('span', { class: 'side-b' }, b), change ? el('span', { class: 'diff-change' }, ' ' + change) : null);

// Times and their changes come rounded as the text report rounds them,
// the figures' list and ratios made by it (diffpage.go).
const dur = (us) => (us < 0 ? '-' : fmtDur(us));
// change is the text report's "+3 ×1.5", "+1.19s", "-1.2s ×0.5": a change
// in microseconds (isDur) or a count, and its ratio (r < 0: none).
function change(v, r, isDur = true) {
  if (!v) return '';
  return (v > 0 ? '+' : '-') + (isDur ? fmtDur(Math.abs(v)) : Math.abs(v)) + (r >= 0 ? ' ×' + Number(r.toPrecision(2)) : '');
}

function familyRow(f) {
  const lines = [];
  if (!f.a || !f.b) {
    const s = f.a || f.b;
    lines.push(el('span', { class: 'diff-fig' }, el('span', { class: 'diff-what' }, what(f.differs[0])), ' ', msg('diff.goroutines', { n: s.lanes })));
  } else {
    for (const g of f.figs) {
      lines.push(figure(what(g.what), g.dur ? dur(g.a) : String(g.a), g.dur ? dur(g.b) : String(g.b), change(g.change, g.ratio, g.dur)));
    }
    for (const [i, key] of [[0, 'diff.callsOnlyA'], [1, 'diff.callsOnlyB']]) {
      if (f.callsOnly[i].length) lines.push(el('span', { class: 'diff-fig' }, el('span', { class: 'diff-what' }, msg(key)), ' ', f.callsOnly[i].join(', ')));
    }
  }
  return item(f.role, f.family, f.lane, lines);
}

function stepRow(s) {
  const at = (i) => (s.at[i] < 0 ? '-' : '#' + s.order[i] + ' ' + fmtDur(s.at[i]));
  return item(s.role, s.name, s.lane, [figure(s.differs.map(what).join(', '), at(0), at(1), change(s.change[0], -1))]);
}

function chainRow(c) {
  const name = c.name.replace(/^action\//, '');
  const lines = [figure(msg('diff.at'), dur(c.at[0]), dur(c.at[1]), change(c.change[0], -1))];
  if (c.at[0] >= 0 && c.at[1] >= 0) lines.push(figure(msg('diff.firstEffect'), dur(c.after[0]), dur(c.after[1]), change(c.change[1], c.ratio)));
  return item(c.role, name, c.lane, lines);
}

// jump shows lane li: out of a search that hides it, its groups unfolded,
// its first step the current one (which scrolls and pans to it); a lane
// without steps is scrolled to.
function jump(li) {
  const l = lanes[li];
  if (matches && !matches[li]) search('');
  const c = component(l), f = family(l);
  if (c) setOpen(c, true);
  if (f) setOpen(f, true);
  regroup();
  for (let i = 0; i < nSteps; i++) {
    if (D.steps[i * ST] === li) { go(i); return; }
  }
  revealRow({ lane: l });
  changed();
}

// Layout: which groups are open, the search, and the rows they give
// (instance headings, groups, lanes) with their heights.
import { api } from './api.js';
import { attr, CA, COLLAPSE_ABOVE, D, EV, groups, instName, IT, lanes } from './data.js';
import { rowsChanged } from './labels.js';

// A group is open when its state differs from the default (open for
// small recordings, collapsed above COLLAPSE_ABOVE lanes) and is in
// flipped. Groups of one lane are not folded: the lane shows as itself.
export let defaultOpen = true;
// flipped holds the indexes of the groups not in the default state.
export const flipped = new Set();
export const isOpen = (g) => defaultOpen !== flipped.has(g.i);
export function setOpen(g, open) {
  if (open === defaultOpen) flipped.delete(g.i); else flipped.add(g.i);
}

// Search: every word of the query must appear in what names the lane:
// its label, goroutine, short label, its groups' names and keys, its
// instance, or an object key (k8s.object.key) of its spans.
export let query = '', matches = null;
let terms = [];
let haystacks = null;
function haystack(li) {
  if (!haystacks) {
    const setKey = D.attrs.map((_, i) => attr(i, 'k8s.object.key'));
    haystacks = lanes.map((l) => {
      const keys = new Set();
      const add = (set) => { const k = setKey[set]; if (k !== undefined) keys.add(k); };
      add(l.raw.attrs);
      for (let o = 0; o < l.it.length; o += IT) add(l.it[o + 5]);
      for (let o = 0; o < l.calls.length; o += CA) add(l.calls[o + 3]);
      for (let o = 0; o < l.events.length; o += EV) add(l.events[o + 2]);
      const parts = [l.label, l.g, l.short, instName(l.inst)];
      for (let g = l.grp >= 0 ? groups[l.grp] : null; g; g = g.parent >= 0 ? groups[g.parent] : null) parts.push(g.name, g.key);
      for (const k of keys) parts.push(k);
      return parts.join('\n').toLowerCase();
    });
  }
  return haystacks[li];
}

export function setQuery(q) {
  query = String(q || '');
  terms = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (!terms.length) { matches = null; return; }
  matches = new Uint8Array(lanes.length);
  for (let li = 0; li < lanes.length; li++) {
    const h = haystack(li);
    matches[li] = terms.every((t) => h.includes(t)) ? 1 : 0;
  }
}
export const anyMatch = (lo, hi) => { for (let li = lo; li < hi; li++) if (matches[li]) return true; return false; };

// Rows: instance headings, groups (a collapsed group is one summary
// row; an open one a heading row over its lanes) and lanes.
export const HEAD_H = 22, ROW_H = 18, OV_H = 30, AXIS_H = 22, TOP = OV_H + AXIS_H;
export const R_INST = 0, R_GROUP = 1, R_LANE = 2;
export let rowY = [], rowH = [], rowKind = [], rowRef = [], rowInst = [], rowDepth = [];
// The row of each lane (its group's when folded), group and instance
// heading; -1 for none.
export let laneRow = new Int32Array(0), groupRow = new Int32Array(0), headRow = new Int32Array(0);
export let contentH = 0, shownLanes = 0;

// resetLayout fits the layout to the model just loaded: no group flipped
// (the default now depends on its size), no search, no rows yet.
export function resetLayout() {
  defaultOpen = lanes.length <= COLLAPSE_ABOVE;
  flipped.clear();
  haystacks = null;
  query = ''; terms = []; matches = null;
  laneRow = new Int32Array(lanes.length);
  groupRow = new Int32Array(groups.length);
  headRow = new Int32Array(D.instances.length);
}

// openStates is whether each group that folds is open, by key; it
// outlives a model, so that a newer snapshot of the run opens the same.
export function openStates() {
  const m = new Map();
  for (const g of groups) if (g.count > 1) m.set(g.key, isOpen(g));
  return m;
}

// restoreOpen opens and folds the groups of m as they were; the others
// stay in the default state.
export function restoreOpen(m) {
  for (const g of groups) {
    const open = m.get(g.key);
    if (open !== undefined) setOpen(g, open);
  }
}

function pushRow(kind, ref, inst, depth) {
  const h = kind === R_INST ? HEAD_H : ROW_H;
  rowY.push(contentH); rowH.push(h); rowKind.push(kind); rowRef.push(ref); rowInst.push(inst); rowDepth.push(depth);
  contentH += h;
  return rowY.length - 1;
}

function pushLane(li, depth) {
  laneRow[li] = pushRow(R_LANE, li, lanes[li].inst, depth);
  shownLanes++;
}

function pushGroup(g, depth) {
  const lo = g.first, hi = g.first + g.count;
  if (matches && !anyMatch(lo, hi)) return;
  if (g.count < 2) {
    for (let li = lo; li < hi; li++) if (!matches || matches[li]) pushLane(li, depth);
    return;
  }
  const r = pushRow(R_GROUP, g.i, g.inst, depth);
  groupRow[g.i] = r;
  if (!matches && !isOpen(g)) {
    for (let li = lo; li < hi; li++) laneRow[li] = r;
    return;
  }
  for (let li = lo; li < hi;) {
    const l = lanes[li];
    const f = l.grp >= 0 && l.grp !== g.i && groups[l.grp].parent === g.i ? groups[l.grp] : null;
    if (f) { pushGroup(f, depth + 1); li = f.first + f.count; continue; }
    if (!matches || matches[li]) pushLane(li, depth + 1);
    li++;
  }
}

export function buildRows() {
  rowY = []; rowH = []; rowKind = []; rowRef = []; rowInst = []; rowDepth = [];
  laneRow.fill(-1); groupRow.fill(-1); headRow.fill(-1);
  contentH = 0; shownLanes = 0;
  D.instances.forEach((inst, ii) => {
    const lo = inst.first, hi = inst.first + inst.count;
    if (matches && !anyMatch(lo, hi)) return;
    headRow[ii] = pushRow(R_INST, ii, ii, 0);
    if (!inst.groups.length) {
      for (let li = lo; li < hi; li++) if (!matches || matches[li]) pushLane(li, 0);
      return;
    }
    for (const gi of inst.groups) pushGroup(groups[gi], 0);
  });
  contentH += 8;
  api.rows = rowY.length;
  rowsChanged();
}

// rowAt returns the row at content y, or -1.
export function rowAt(y) {
  let lo = 0, hi = rowY.length - 1, r = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (rowY[mid] <= y) { r = mid; lo = mid + 1; } else hi = mid - 1;
  }
  return r >= 0 && y < rowY[r] + rowH[r] ? r : -1;
}


// The page's data, decoded: traces/htmlview (data.go) writes it. Times
// are microseconds from the start of the recording, names and attribute
// keys are indexes into D.strings, attribute values indexes into D.values,
// and marks are flat arrays of integers per lane (strides in D.strides).
// Lanes are in display order; D.groups are the instances' components and
// their families, each a run of lanes.
//
// One timeline is shown at a time, so the model is this module's state:
// load replaces it (a newer snapshot of a live run, or another recording)
// and every other module reads it through these live bindings.
const FORMAT = 3;

// A span (an iteration or a call) that lasts this long or more is drawn
// as waiting, an outline over a hatch; a shorter one solid, as work. In
// kubeloom work takes (almost) no simulated time and waiting takes all
// of it: docs/export.md, "Working and waiting".
export const WAIT_US = 100000;
// A recording with more lanes than this opens with its groups collapsed.
export const COLLAPSE_ABOVE = 60;
// What a mark or a row is, by kind: the page.yaml keys kinds.*.
export const KINDS = ['started', 'iteration', 'call', 'event', 'stopped', 'goroutine', 'instance', 'group'];

export let D = null, S = [];
export let IT = 6, CA = 4, EV = 3, ST = 3, FL = 6;
export let lanes = [], groups = [], groupByKey = new Map(), nSteps = 0;
// span is the recording's duration as the view divides it (never 0).
export let span = 1;
let keyIndex = new Map();

// load makes d the model. The indexes built on first use (steps, flows)
// go with the old one.
export function load(d) {
  if (d.v !== FORMAT) {
    throw new Error('kubeloom: this page holds data of format ' + d.v + ', its script reads format ' + FORMAT);
  }
  D = d;
  S = D.strings;
  ({ it: IT, calls: CA, events: EV, steps: ST, flows: FL } = D.strides);
  keyIndex = new Map(S.map((s, i) => [s, i]));
  lanes = D.lanes.map((l, i) => ({
    i, raw: l, inst: l.in, label: S[l.label], short: S[l.short], grp: l.grp, g: S[l.g], kind: S[l.kind],
    start: l.start, end: l.end, open: !!l.open, period: l.period, entry: l.entry >= 0 ? D.entries[l.entry] : null,
    it: l.it, calls: l.calls, events: l.events,
    itMax: maxDur(l.it, IT), callMax: maxDur(l.calls, CA),
  }));
  // A goroutine of a live run that has not returned: its lifetime span is
  // cut at the run's current instant, which is no end.
  for (const l of lanes) l.running = attr(l.raw.attrs, 'kubeloom.running') === 'true';
  groups = D.groups.map((g, i) => ({
    i, key: S[g.key], name: S[g.name], inst: g.in, parent: g.parent, kids: g.groups, first: g.first, count: g.count,
  }));
  groupByKey = new Map(groups.map((g) => [g.key, g]));
  nSteps = D.steps.length / ST;
  span = Math.max(D.duration, 1);
  stepIndex = null;
  flowIndex = null;
}

// attr returns the value of key in attribute set i, or undefined.
export function attr(i, key) {
  const k = keyIndex.get(key), a = D.attrs[i];
  if (k === undefined) return undefined;
  for (let j = 0; j < a.length; j += 2) if (a[j] === k) return valueText(a[j + 1]);
  return undefined;
}

export function valueText(vi) {
  const v = D.values[vi];
  return typeof v === 'string' ? v : JSON.stringify(v);
}

function maxDur(arr, stride) {
  let m = 0;
  for (let i = 1; i < arr.length; i += stride) if (arr[i] > m) m = arr[i];
  return m;
}

// component is the lane's component, family its family (or null).
export const component = (l) => {
  if (l.grp < 0) return null;
  const g = groups[l.grp];
  return g.parent >= 0 ? groups[g.parent] : g;
};
export const family = (l) => (l.grp >= 0 && groups[l.grp].parent >= 0 ? groups[l.grp] : null);
export const instName = (ii) => S[D.instances[ii].name];
// groupPath names where a lane is: "controller/replicaset › worker".
export function groupPath(l) {
  const c = component(l), f = family(l);
  if (!c || c.count < 2) return '';
  return f ? c.name + ' › ' + f.name : c.name;
}

// lowerBound returns the first mark of arr whose time is >= t.
export function lowerBound(arr, stride, t) {
  let lo = 0, hi = arr.length / stride;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (arr[mid * stride] < t) lo = mid + 1; else hi = mid;
  }
  return lo;
}

export function step(i) {
  const o = i * ST;
  return { i, lane: lanes[D.steps[o]], kind: D.steps[o + 1], mark: D.steps[o + 2] };
}

// spanOf is the [start, end] of a lane's lifetime (kind 0 and 4), an
// iteration (1), a call (2) or an event (3).
export function spanOf(l, kind, m) {
  switch (kind) {
    case 0: return [l.start, l.start];
    case 1: return [l.it[m * IT], l.it[m * IT] + l.it[m * IT + 1]];
    case 2: return [l.calls[m * CA], l.calls[m * CA] + l.calls[m * CA + 1]];
    case 3: return [l.events[m * EV], l.events[m * EV]];
    default: return [l.end, l.end];
  }
}
export const markSpan = (s) => spanOf(s.lane, s.kind, s.mark);

export function markName(l, kind, m) {
  switch (kind) {
    case 1: return S[l.it[m * IT + 2]];
    case 2: return S[l.calls[m * CA + 2]];
    case 3: return S[l.events[m * EV + 1]];
    default: return l.label;
  }
}

// stepOf maps (lane, kind, mark) to the index of its step; the index is
// built on first use.
let stepIndex = null;
export function stepOf(li, kind, m) {
  if (!stepIndex) {
    stepIndex = lanes.map((l) => ({
      s: -1, e: -1,
      1: new Int32Array(l.it.length / IT).fill(-1),
      2: new Int32Array(l.calls.length / CA).fill(-1),
      3: new Int32Array(l.events.length / EV).fill(-1),
    }));
    for (let i = 0; i < nSteps; i++) {
      const o = i * ST, x = stepIndex[D.steps[o]], k = D.steps[o + 1];
      if (k === 0) x.s = i; else if (k === 4) x.e = i; else x[k][D.steps[o + 2]] = i;
    }
  }
  const x = stepIndex[li];
  if (kind === 0) return x.s;
  if (kind === 4) return x.e;
  return x[kind][m];
}

// flowsOf returns the causal links of a mark: {causes, effects}, each a
// list of offsets into D.flows. The index is built on first use.
let flowIndex = null;
const NO_FLOWS = { causes: [], effects: [] };
const flowKey = (li, kind, m) => (li * 3 + kind) * 67108864 + m;
export function flowsOf(li, kind, m) {
  if (kind > 2) return NO_FLOWS;
  if (!flowIndex) {
    flowIndex = new Map();
    const at = (k) => {
      let v = flowIndex.get(k);
      if (!v) { v = { causes: [], effects: [] }; flowIndex.set(k, v); }
      return v;
    };
    const F = D.flows;
    for (let o = 0; o < F.length; o += FL) {
      at(flowKey(F[o], F[o + 1], F[o + 2])).effects.push(o);
      at(flowKey(F[o + 3], F[o + 4], F[o + 5])).causes.push(o);
    }
  }
  return flowIndex.get(flowKey(li, kind, kind === 0 ? 0 : m)) || NO_FLOWS;
}

// stepFlows is the causal links of step s (none for kinds above 2).
export const stepFlows = (s) => flowsOf(s.lane.i, s.kind, s.mark);

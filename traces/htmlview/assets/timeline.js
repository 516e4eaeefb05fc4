// kubeloom timeline page: draws a recording's lanes on a canvas and walks
// through its steps with the goroutine catalog's narrative.
//
// The data (the element #kubeloom-data) is written by traces/htmlview
// (data.go): times are microseconds from the start of the recording, names
// and attribute keys are indexes into D.strings, attribute values indexes
// into D.values, and marks are flat arrays of integers per lane (strides in
// D.strides). Lanes are in display order; D.groups are the instances'
// components and their families, each a run of lanes.
//
// window.kubeloom, for tests and scripts:
//   ready         true once the first frame is drawn
//   firstPaintMs  ms from navigation start to the end of the first frame
//   lanes, groups, instances, steps   what the recording holds
//   rows          rows laid out (instance headings, groups, lanes)
//   visibleRows   rows wholly inside the plot in the last frame
//   drawnLanes, drawnGroups   lane and group rows drawn in the last frame
//   drawnMarks    rectangles and event marks drawn in the last frame
//   drawnFlows    causal arrows drawn in the last frame
//   frameMs       how long the last frame took to draw
//   step, lang    the current step (-1: none yet) and the language's code ('en', 'zh')
//   next(), prev(), go(i), setLang(l), fit(), redraw()
//   msg(key, args, lang)  a word of the page (page.yaml), formatted, in lang or the page's language
//   zoom(f)       what + and − do: ×f around the current step, else the middle
//   zoomToStep()  what z does
//   search(q), expand(key, open), expandAll(open), openGroups()
//   narrative(), details()  the text of the two panels
//   stepInfo(i)   {lane, label, kind, name, hasEntry, group} of a step
//   locate(i)     {x, y}: where step i's mark is in the viewport (scrolls to it)
//   stepVisible() {x, y, row}: whether the current step's mark is in the plot
//   view()        {t0, t1, scale, scrollY}: the visible window
//   timeAt(x), xOf(t)   viewport x ↔ time
//   plot()        {left, top, right, bottom}: the lanes' area in the viewport
//   rowsInfo()    the rows laid out: {kind, name, key, lane, open, y}
//   groupRow(key) {x, y}: the viewport point of a group's row (scrolls to it)
//   ticks()       {step, ticks: [{t, label}]}: the axis of the last frame
//   flows()       {causes, effects}: the current step's causal links
//   hash()        the URL fragment that keeps the view
(function () {
  'use strict';

  const api = (window.kubeloom = {
    ready: false, firstPaintMs: 0, lanes: 0, groups: 0, instances: 0, steps: 0, rows: 0, visibleRows: 0,
    drawnLanes: 0, drawnGroups: 0, drawnMarks: 0, drawnFlows: 0, frameMs: 0, step: -1, lang: 'en',
  });

  const FORMAT = 3;
  const $ = (id) => document.getElementById(id);
  const D = JSON.parse($('kubeloom-data').textContent);
  if (D.v !== FORMAT) {
    throw new Error('kubeloom: this page holds data of format ' + D.v + ', its script reads format ' + FORMAT);
  }
  const S = D.strings;
  const IT = D.strides.it, CA = D.strides.calls, EV = D.strides.events, ST = D.strides.steps, FL = D.strides.flows;

  // A span (an iteration or a call) that lasts this long or more is drawn
  // as waiting, an outline over a hatch; a shorter one solid, as work. In
  // kubeloom work takes (almost) no simulated time and waiting takes all
  // of it: docs/export.md, "Working and waiting".
  const WAIT_US = 100000;
  // A recording with more lanes than this opens with its groups collapsed.
  const COLLAPSE_ABOVE = 60;

  // ---- Text, in the languages of the data --------------------------------

  // D.langs are kubeloom's languages (sim/catalog/locale), English first,
  // each with its words (page.yaml) as written. msg formats one as Go's
  // locale.Format does: {name} is an argument, {n, plural, one {…} other
  // {…}} a form picked by =n or the language's plural rules (# is the
  // number), and '{', '}' or '#' in quotes the character itself.
  const KINDS = ['started', 'iteration', 'call', 'event', 'stopped', 'goroutine', 'instance', 'group'];
  let L = D.langs[0];
  const parsed = new Map(); // code + '\n' + key → the message's segments

  function parseMsg(s) {
    let i = 0;
    const fail = (why) => { throw new Error('kubeloom: message ' + JSON.stringify(s) + ': ' + why); };
    const space = () => { while (i < s.length && ' \n\t'.includes(s[i])) i++; };
    const word = () => { const w = /^[A-Za-z0-9_]*/.exec(s.slice(i))[0]; i += w.length; return w; };
    function segments(inForm) {
      const segs = [];
      let text = '';
      const flush = () => { if (text) { segs.push(text); text = ''; } };
      while (i < s.length) {
        const c = s[i];
        if (c === "'" && i + 2 < s.length && '{}#'.includes(s[i + 1]) && s[i + 2] === "'") { text += s[i + 1]; i += 3; }
        else if (c === '{') { flush(); segs.push(placeholder()); }
        else if (c === '}' && inForm) { i++; flush(); return segs; }
        else if (c === '}') fail('a } closes nothing');
        else if (c === '#' && inForm) { flush(); segs.push({ hash: true }); i++; }
        else { text += c; i++; }
      }
      if (inForm) fail('a plural form is not closed');
      flush();
      return segs;
    }
    function placeholder() {
      i++;
      space();
      const name = word();
      if (!name) fail('a { starts no placeholder');
      space();
      if (s[i] === '}') { i++; return { arg: name }; }
      if (s[i++] !== ',') fail('{' + name + ': expected its }');
      space();
      if (word() !== 'plural') fail('{' + name + ': the only kind is plural');
      space();
      if (s[i++] !== ',') fail('{' + name + ', plural: expected a ,');
      const forms = [];
      for (;;) {
        space();
        if (s[i] === '}') { i++; break; }
        let sel;
        if (s[i] === '=') { i++; sel = '=' + word(); } else sel = word();
        if (!sel || sel === '=') fail('{' + name + ', plural, …}: expected a form');
        space();
        if (s[i++] !== '{') fail('{' + name + ', plural, …}: the form ' + sel + ' needs its text in braces');
        forms.push([sel, segments(true)]);
      }
      return { plural: name, forms };
    }
    return segments(false);
  }

  function formatSegs(segs, args, rules, hash) {
    let out = '';
    for (const g of segs) {
      if (typeof g === 'string') out += g;
      else if (g.hash) out += hash;
      else if (g.arg !== undefined) out += g.arg in args ? String(args[g.arg]) : '{' + g.arg + '}';
      else if (!(g.plural in args)) out += '{' + g.plural + '}';
      else {
        const v = args[g.plural], whole = Number.isInteger(v), cat = whole ? rules.select(v) : 'other';
        let form = null, other = null;
        for (const [sel, fs] of g.forms) {
          if (whole && sel === '=' + v) { form = fs; break; }
          if (sel === cat) form = form || fs;
          if (sel === 'other') other = fs;
        }
        out += formatSegs(form || other, args, rules, String(v));
      }
    }
    return out;
  }

  // msgIn formats the message key of language l with args; a key that is
  // not one comes back in brackets, as in Go.
  function msgIn(l, key, args) {
    const text = l.text[key];
    if (text === undefined) return '[' + key + ']';
    const id = l.code + '\n' + key;
    let segs = parsed.get(id);
    if (!segs) { segs = parseMsg(text); parsed.set(id, segs); }
    if (!l.rules) l.rules = new Intl.PluralRules(l.tag);
    return formatSegs(segs, args || {}, l.rules, '');
  }
  const msg = (key, args) => msgIn(L, key, args);
  const nextLang = () => D.langs[(D.langs.indexOf(L) + 1) % D.langs.length];
  // storyOf is an entry's or startup step's story in the page's language.
  const storyOf = (e) => e.story[L.code] || e.story[D.langs[0].code];

  // ---- Formatting ---------------------------------------------------------

  function trimZeros(s) {
    return s.indexOf('.') < 0 ? s : s.replace(/0+$/, '').replace(/\.$/, '');
  }

  // fmtDur formats a duration in microseconds the way Go prints durations.
  function fmtDur(us) {
    if (us < 0) return '-' + fmtDur(-us);
    if (us === 0) return '0s';
    if (us < 1000) return us + 'µs';
    if (us < 1e6) return trimZeros((us / 1e3).toFixed(3)) + 'ms';
    if (us < 60e6) return trimZeros((us / 1e6).toFixed(6)) + 's';
    const h = Math.floor(us / 3600e6);
    const m = Math.floor((us % 3600e6) / 60e6);
    const s = trimZeros(((us % 60e6) / 1e6).toFixed(3));
    return (h ? h + 'h' : '') + ((h || m) ? m + 'm' : '') + s + 's';
  }
  const fmtOff = (us) => '+' + fmtDur(us);
  const fmtNum = (n) => n.toLocaleString('en-US');

  // The axis ticks: 1-2-5 steps up to half a second, then steps a clock
  // reads: 1s, 5s, 10s, 15s, 30s, 1m, 5m, 10m, 15m, 30m, 1h… (never 50s,
  // whose ticks fall at 1m40s and 2m30s).
  const TICK_STEPS = [];
  for (let p = 1; p < 1e6; p *= 10) TICK_STEPS.push(p, 2 * p, 5 * p);
  TICK_STEPS.push(1e6, 5e6, 10e6, 15e6, 30e6, 60e6, 300e6, 600e6, 900e6, 1800e6,
    3600e6, 7200e6, 10800e6, 21600e6, 43200e6, 86400e6);

  function tickStep(minUs) {
    for (const s of TICK_STEPS) if (s >= minUs) return s;
    return Math.ceil(minUs / 86400e6) * 86400e6;
  }

  // fmtTick labels an axis tick at t for ticks step apart: 0, 30s, 1m,
  // 1m30s, 1h5m; below a second, seconds with the decimals the step needs.
  function fmtTick(t, step) {
    if (t === 0) return '0';
    if (step >= 1e6) {
      let s = Math.round(t / 1e6);
      const h = Math.floor(s / 3600);
      s -= h * 3600;
      const m = Math.floor(s / 60);
      s -= m * 60;
      return (h ? h + 'h' : '') + (m ? m + 'm' : '') + (s ? s + 's' : '');
    }
    const d = Math.max(0, Math.ceil(-Math.log10(step / 1e6) - 1e-9));
    const m = Math.floor(t / 60e6);
    return (m ? m + 'm' : '') + trimZeros(((t - m * 60e6) / 1e6).toFixed(d)) + 's';
  }

  const ESC = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
  const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ESC[c]);

  // attr returns the value of key in attribute set i, or undefined.
  const keyIndex = new Map(S.map((s, i) => [s, i]));
  function attr(i, key) {
    const k = keyIndex.get(key), a = D.attrs[i];
    if (k === undefined) return undefined;
    for (let j = 0; j < a.length; j += 2) if (a[j] === k) return valueText(a[j + 1]);
    return undefined;
  }

  function valueText(vi) {
    const v = D.values[vi];
    return typeof v === 'string' ? v : JSON.stringify(v);
  }

  // ---- Model --------------------------------------------------------------

  function maxDur(arr, stride) {
    let m = 0;
    for (let i = 1; i < arr.length; i += stride) if (arr[i] > m) m = arr[i];
    return m;
  }

  const lanes = D.lanes.map((l, i) => ({
    i, raw: l, inst: l.in, label: S[l.label], short: S[l.short], grp: l.grp, g: S[l.g], kind: S[l.kind],
    start: l.start, end: l.end, open: !!l.open, period: l.period, entry: l.entry >= 0 ? D.entries[l.entry] : null,
    it: l.it, calls: l.calls, events: l.events,
    itMax: maxDur(l.it, IT), callMax: maxDur(l.calls, CA),
  }));
  const groups = D.groups.map((g, i) => ({
    i, key: S[g.key], name: S[g.name], inst: g.in, parent: g.parent, kids: g.groups, first: g.first, count: g.count,
  }));
  const groupByKey = new Map(groups.map((g) => [g.key, g]));
  const nSteps = D.steps.length / ST;
  api.lanes = lanes.length;
  api.groups = groups.length;
  api.instances = D.instances.length;
  api.steps = nSteps;

  // component is the lane's component, family its family (or null).
  const component = (l) => {
    if (l.grp < 0) return null;
    const g = groups[l.grp];
    return g.parent >= 0 ? groups[g.parent] : g;
  };
  const family = (l) => (l.grp >= 0 && groups[l.grp].parent >= 0 ? groups[l.grp] : null);
  const instName = (ii) => S[D.instances[ii].name];
  // groupPath names where a lane is: "controller/replicaset › worker".
  function groupPath(l) {
    const c = component(l), f = family(l);
    if (!c || c.count < 2) return '';
    return f ? c.name + ' › ' + f.name : c.name;
  }

  // lowerBound returns the first mark of arr whose time is >= t.
  function lowerBound(arr, stride, t) {
    let lo = 0, hi = arr.length / stride;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (arr[mid * stride] < t) lo = mid + 1; else hi = mid;
    }
    return lo;
  }

  function step(i) {
    const o = i * ST;
    return { i, lane: lanes[D.steps[o]], kind: D.steps[o + 1], mark: D.steps[o + 2] };
  }

  // spanOf is the [start, end] of a lane's lifetime (kind 0 and 4), an
  // iteration (1), a call (2) or an event (3).
  function spanOf(l, kind, m) {
    switch (kind) {
      case 0: return [l.start, l.start];
      case 1: return [l.it[m * IT], l.it[m * IT] + l.it[m * IT + 1]];
      case 2: return [l.calls[m * CA], l.calls[m * CA] + l.calls[m * CA + 1]];
      case 3: return [l.events[m * EV], l.events[m * EV]];
      default: return [l.end, l.end];
    }
  }
  const markSpan = (s) => spanOf(s.lane, s.kind, s.mark);

  function markName(l, kind, m) {
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
  function stepOf(li, kind, m) {
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
  function flowsOf(li, kind, m) {
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
  const stepFlows = (s) => flowsOf(s.lane.i, s.kind, s.mark);

  // ---- Groups, search and rows ------------------------------------------

  // A group is open when its state differs from the default (open for
  // small recordings, collapsed above COLLAPSE_ABOVE lanes) and is in
  // flipped. Groups of one lane are not folded: the lane shows as itself.
  const defaultOpen = lanes.length <= COLLAPSE_ABOVE;
  const flipped = new Set();
  const isOpen = (g) => defaultOpen !== flipped.has(g.i);
  function setOpen(g, open) {
    if (open === defaultOpen) flipped.delete(g.i); else flipped.add(g.i);
  }

  // Search: every word of the query must appear in what names the lane:
  // its label, goroutine, short label, its groups' names and keys, its
  // instance, or an object key (k8s.object.key) of its spans.
  let query = '', terms = [], matches = null;
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

  function setQuery(q) {
    query = String(q || '');
    terms = query.toLowerCase().split(/\s+/).filter(Boolean);
    if (!terms.length) { matches = null; return; }
    matches = new Uint8Array(lanes.length);
    for (let li = 0; li < lanes.length; li++) {
      const h = haystack(li);
      matches[li] = terms.every((t) => h.includes(t)) ? 1 : 0;
    }
  }
  const anyMatch = (lo, hi) => { for (let li = lo; li < hi; li++) if (matches[li]) return true; return false; };

  // Rows: instance headings, groups (a collapsed group is one summary
  // row; an open one a heading row over its lanes) and lanes.
  const HEAD_H = 22, ROW_H = 18, OV_H = 30, AXIS_H = 22, TOP = OV_H + AXIS_H;
  const R_INST = 0, R_GROUP = 1, R_LANE = 2;
  let rowY = [], rowH = [], rowKind = [], rowRef = [], rowInst = [], rowDepth = [];
  const laneRow = new Int32Array(lanes.length), groupRow = new Int32Array(groups.length);
  const headRow = new Int32Array(D.instances.length);
  let contentH = 0, shownLanes = 0;

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

  function buildRows() {
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
    rowsVersion++;
    labelCache.clear();
  }

  // rowAt returns the row at content y, or -1.
  function rowAt(y) {
    let lo = 0, hi = rowY.length - 1, r = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (rowY[mid] <= y) { r = mid; lo = mid + 1; } else hi = mid - 1;
    }
    return r >= 0 && y < rowY[r] + rowH[r] ? r : -1;
  }

  // ---- View ---------------------------------------------------------------

  const canvas = $('canvas');
  const ctx = canvas.getContext('2d', { alpha: false });
  let W = 0, H = 0, dpr = 1, gutter = 260;
  const view = { t0: 0, scale: 1, y: 0 };
  let fitted = true;
  const span = Math.max(D.duration, 1);
  const plotW = () => Math.max(W - gutter, 10);
  const plotH = () => Math.max(H - TOP, 10);
  const X = (t) => gutter + (t - view.t0) * view.scale;
  const tAt = (x) => view.t0 + (x - gutter) / view.scale;

  function fitScale() { return (plotW() - 24) / span; }

  function clampView() {
    const minScale = fitScale() / 4, maxScale = 20; // 20 px per µs
    view.scale = Math.min(Math.max(view.scale, minScale), Math.max(maxScale, minScale));
    // The recording fills the view, with a margin; zoomed out further, it
    // stays in the middle.
    const vis = plotW() / view.scale, pad = 12 / view.scale;
    if (vis >= span + 2 * pad) view.t0 = (span - vis) / 2;
    else view.t0 = Math.min(Math.max(view.t0, -pad), span + pad - vis);
    view.y = Math.min(Math.max(view.y, 0), Math.max(0, contentH - plotH()));
  }

  function fit() {
    view.scale = fitScale();
    view.t0 = -12 / view.scale;
    fitted = true;
    clampView();
    changed();
  }

  // setWindow shows the times [a, b] across the plot.
  function setWindow(a, b) {
    view.scale = plotW() / Math.max(b - a, 1e-3);
    view.t0 = a;
    fitted = false;
    clampView();
  }

  // zoomTo sets the scale (clamped), keeping time t at x.
  function zoomTo(scale, t, x) {
    view.scale = scale;
    clampView();
    view.t0 = t - (x - gutter) / view.scale;
    fitted = false;
    clampView();
    changed();
  }

  // zoomAt zooms by f keeping the time under x where it is.
  const zoomAt = (f, x) => zoomTo(view.scale * f, tAt(x), x);

  // zoomAround is what + and − do: zoom at the current step's time when
  // there is one (and bring it into view first if it is not), else at the
  // middle of the plot; the step never leaves the view.
  function zoomAround(f) {
    if (api.step < 0) { zoomAt(f, gutter + plotW() / 2); return; }
    const [a] = markSpan(step(api.step));
    const x = X(a);
    // Off the plot, the step comes to its middle.
    zoomTo(view.scale * f, a, x >= gutter && x <= W ? x : gutter + plotW() / 2);
  }

  // zoomToStep is z: the current step's span across most of the plot; a
  // span too short to see (an event, a call that took no simulated time)
  // gets a window of a fiftieth of the recording, between 2 ms and 2 s.
  function zoomToStep() {
    if (api.step < 0) return;
    const s = step(api.step);
    const [a, b] = markSpan(s);
    const min = Math.min(Math.max(span / 50, 2000), 2e6);
    if (b - a >= min) {
      const pad = (b - a) * 0.1;
      setWindow(a - pad, b + pad);
    } else {
      const c = (a + b) / 2;
      setWindow(c - min / 2, c + min / 2);
    }
    revealRow(s);
    changed();
  }

  // resize follows the canvas's size; the ResizeObserver's first call,
  // at the size the start already measured, changes nothing.
  function resize() {
    const r = canvas.getBoundingClientRect();
    const w = Math.max(1, Math.round(r.width)), h = Math.max(1, Math.round(r.height)), d = window.devicePixelRatio || 1;
    if (w === W && h === H && d === dpr) return;
    const a = view.t0, b = tAt(W);
    dpr = d;
    W = w;
    H = h;
    canvas.width = Math.round(W * dpr);
    canvas.height = Math.round(H * dpr);
    const g = Math.round(Math.min(300, Math.max(150, W * 0.24)));
    if (g !== gutter) { gutter = g; labelCache.clear(); }
    overviewImage = null;
    if (fitted) { view.scale = fitScale(); view.t0 = -12 / view.scale; clampView(); } else setWindow(a, b);
    requestRender();
  }

  // changed asks for a frame and, a little later, for the URL fragment to
  // follow the view.
  function changed() {
    requestRender();
    saveHashSoon();
  }

  // ---- Drawing ------------------------------------------------------------

  const C = {
    bg: '#ffffff', stripe: 'rgba(31, 35, 40, 0.028)', head: '#eef1f4', headText: '#1f2328', text: '#3d444d', muted: '#6e7781',
    grid: '#eceff2', axis: '#59636e', life: '#c3c9d1', lifeOpen: '#dde1e6', startTick: '#1a7f37', endTick: '#59636e',
    it: '#2f6fde', call: '#e39a0b', ev: '#b3261e', cur: 'rgba(255, 200, 0, 0.22)', curLine: '#d1242f',
    itWait: 'rgba(47, 111, 222, 0.10)', itHatch: 'rgba(47, 111, 222, 0.45)', itLine: 'rgba(47, 111, 222, 0.85)', itThin: 'rgba(47, 111, 222, 0.3)',
    callWait: 'rgba(227, 154, 11, 0.12)', callHatch: 'rgba(200, 125, 0, 0.5)', callLine: 'rgba(200, 125, 0, 0.9)', callThin: 'rgba(227, 154, 11, 0.35)',
    groupWait: 'rgba(89, 99, 110, 0.13)', groupRow: '#f6f8fa', groupOpen: '#f0f3f6',
    cause: '#8250df', effect: '#0f7b6c',
    hover: '#1f2328', gutter: '#fafbfc', gutterLine: '#d0d7de', ovBar: '#8ea9d6', ovWin: 'rgba(47, 111, 222, 0.14)',
  };
  const FONT_FAMILY = 'system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Noto Sans CJK SC", "Source Han Sans SC", "WenQuanYi Micro Hei", "PingFang SC", "Microsoft YaHei", sans-serif';
  const FONT = '12px ' + FONT_FAMILY;
  const FONT_B = 'bold ' + FONT;
  const FONT_S = '11px ' + FONT_FAMILY;
  const labelCache = new Map();

  function hatch(color) {
    const c = document.createElement('canvas');
    c.width = c.height = 6;
    const g = c.getContext('2d');
    g.strokeStyle = color;
    g.lineWidth = 1;
    g.beginPath();
    g.moveTo(-1, 7); g.lineTo(7, -1);
    g.moveTo(-1, 1); g.lineTo(1, -1);
    g.moveTo(5, 7); g.lineTo(7, 5);
    g.stroke();
    return ctx.createPattern(c, 'repeat');
  }
  const HATCH = { it: hatch(C.itHatch), call: hatch(C.callHatch) };

  // cutEnd fits text into max pixels by cutting its end.
  function cutEnd(text, max) {
    if (ctx.measureText(text).width <= max) return text;
    let lo = 0, hi = text.length;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (ctx.measureText(text.slice(0, mid) + '…').width <= max) lo = mid; else hi = mid - 1;
    }
    return text.slice(0, lo) + '…';
  }

  const isSep = (c) => c === ' ' || c === '/' || c === '-' || c === '.' || c === '_' || c === ':';

  // fitLabel fits a label into max pixels keeping what tells it from its
  // siblings (the other labels of its group), as timeline.FitAll does in the
  // terminal: it cuts the start they share, keeping the first word, so
  // "pod-worker default/web-2078879897-pts6f" reads "pod-worker …pts6f".
  function fitLabel(text, sibs, max) {
    if (ctx.measureText(text).width <= max) return text;
    let lo = 0, hi = text.length;
    for (const o of sibs) {
      if (o === text) continue;
      let p = 0;
      while (p < text.length && p < o.length && text[p] === o[p]) p++;
      let s = 0;
      while (s < text.length - p && s < o.length - p && text[text.length - 1 - s] === o[o.length - 1 - s]) s++;
      lo = Math.max(lo, p);
      hi = Math.min(hi, text.length - s);
    }
    if (hi < lo) hi = lo;
    while (lo > 0 && !isSep(text[lo - 1])) lo--;
    if (lo === 0 || ctx.measureText(text.slice(0, hi) + '…').width <= max) return cutEnd(text, max);
    const sp = text.indexOf(' ');
    let head = sp > 0 && sp + 1 <= lo ? text.slice(0, sp + 1) : '';
    if (head && ctx.measureText(head + '…' + text.slice(lo, hi)).width > max) head = '';
    const rest = text.slice(lo);
    if (ctx.measureText(head + '…' + rest).width <= max) return head + '…' + rest;
    let a = 0, b = rest.length;
    while (a < b) {
      const mid = (a + b + 1) >> 1;
      if (ctx.measureText(head + '…' + rest.slice(0, mid) + '…').width <= max) a = mid; else b = mid - 1;
    }
    return a > 0 ? head + '…' + rest.slice(0, a) + '…' : cutEnd(text, max);
  }

  // laneText is the label a lane's row shows: its short label inside an
  // open group, else its whole label, fitted to max pixels.
  function laneText(li, depth, max, font) {
    const k = li + '|' + depth + '|' + max + '|' + font;
    let v = labelCache.get(k);
    if (v === undefined) {
      ctx.font = font;
      const l = lanes[li];
      if (depth > 0 && l.grp >= 0) {
        const g = groups[l.grp];
        const sibs = [];
        for (let j = g.first; j < g.first + g.count; j++) if (lanes[j].grp === l.grp) sibs.push(lanes[j].short);
        v = fitLabel(l.short, sibs, max);
      } else v = cutEnd(l.label, max);
      labelCache.set(k, v);
    }
    return v;
  }

  // groupText is a group's name fitted as lane labels are, among the
  // names of its siblings (the instance's components, or the component's
  // families): "controller/persistentvolume-binder" reads
  // "…persistentvolume-binder" beside "controller/podgc".
  function groupText(g, max, font) {
    const k = 'g' + g.i + '|' + max + '|' + font;
    let v = labelCache.get(k);
    if (v === undefined) {
      ctx.font = font;
      const sibs = (g.parent >= 0 ? groups[g.parent].kids : D.instances[g.inst].groups).map((j) => groups[j].name);
      v = fitLabel(g.name, sibs, max);
      labelCache.set(k, v);
    }
    return v;
  }

  function fitText(key, text, max, font) {
    const k = key + '|' + max + '|' + font;
    let v = labelCache.get(k);
    if (v === undefined) {
      ctx.font = font;
      v = cutEnd(text, max);
      labelCache.set(k, v);
    }
    return v;
  }

  let sticky = null; // the heading pinned at the top: {ii, y}
  let pending = false;
  function requestRender() {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => { pending = false; render(); });
  }

  let marksDrawn = 0;

  // Rectangles are collected as (x, width) pairs in arrays reused from
  // frame to frame, then drawn as one path each: a frame allocates nothing
  // per lane.
  const rWork = [], rThin = [], rBox = [], rWait = [];
  function fillRects(r, y, h) {
    if (!r.length) return;
    ctx.beginPath();
    for (let i = 0; i < r.length; i += 2) ctx.rect(r[i], y, r[i + 1], h);
    ctx.fill();
    marksDrawn += r.length / 2;
  }

  // drawMarks draws the spans of arr that are in view in the band y..y+h.
  // Work (a span shorter than WAIT_US) is solid; marks narrower than 2px
  // merge with neighbours closer than a pixel, so a lane costs at most a
  // rectangle per pixel at any zoom. Waiting (WAIT_US or longer) is a
  // light box with a hatch and an outline, or a light bar when it is too
  // narrow for one; waits go under the work.
  function drawMarks(arr, stride, max, y, h, solid, light, hatchFill, line, thinFill) {
    const n = arr.length / stride;
    if (!n) return;
    const tEnd = tAt(W);
    let i = lowerBound(arr, stride, tAt(gutter) - max);
    rWork.length = 0; rThin.length = 0; rBox.length = 0;
    let wx0 = 0, wx1 = -1, lx0 = 0, lx1 = -1;
    for (; i < n; i++) {
      const o = i * stride, s = arr[o];
      if (s > tEnd) break;
      const d = arr[o + 1];
      let x0 = X(s), x1 = X(s + d);
      if (x1 < gutter) continue;
      if (x0 < gutter) x0 = gutter;
      if (x1 > W) x1 = W;
      const wait = d >= WAIT_US;
      if (wait && x1 - x0 >= 4) {
        rBox.push(Math.round(x0) + 0.5, Math.max(Math.round(x1) - Math.round(x0) - 2, 1));
        continue;
      }
      const narrow = x1 - x0 < 2;
      if (narrow) x1 = Math.max(x1, x0 + 1);
      else if (x1 - x0 >= 4) x1 -= 1; // a gap between wide neighbours
      if (wait) {
        if (lx1 >= 0 && x0 < lx1 + 1) { if (x1 > lx1) lx1 = x1; continue; }
        if (lx1 >= 0) rThin.push(lx0, lx1 - lx0);
        lx0 = x0; lx1 = x1;
        continue;
      }
      if (wx1 >= 0 && narrow && x0 < wx1 + 1) { if (x1 > wx1) wx1 = x1; continue; }
      if (wx1 >= 0) rWork.push(wx0, wx1 - wx0);
      wx0 = x0; wx1 = x1;
    }
    if (lx1 >= 0) rThin.push(lx0, lx1 - lx0);
    if (wx1 >= 0) rWork.push(wx0, wx1 - wx0);
    if (rBox.length) {
      ctx.beginPath();
      for (let k = 0; k < rBox.length; k += 2) ctx.rect(rBox[k], y + 0.5, rBox[k + 1], h - 1);
      ctx.fillStyle = light;
      ctx.fill();
      ctx.fillStyle = hatchFill;
      ctx.fill();
      ctx.strokeStyle = line;
      ctx.lineWidth = 1;
      ctx.stroke();
      marksDrawn += rBox.length / 2;
    }
    ctx.fillStyle = thinFill;
    fillRects(rThin, y, h);
    ctx.fillStyle = solid;
    fillRects(rWork, y, h);
  }

  // drawEvents draws one diamond per pixel column that holds events.
  function drawEvents(arr, y) {
    const n = arr.length / EV;
    if (!n) return;
    const tEnd = tAt(W);
    let i = lowerBound(arr, EV, tAt(gutter - 4));
    let last = -1e9;
    ctx.beginPath();
    for (; i < n; i++) {
      const t = arr[i * EV];
      if (t > tEnd) break;
      const x = Math.round(X(t));
      if (x - last < 2) continue;
      last = x;
      ctx.moveTo(x, y - 4); ctx.lineTo(x + 3.5, y); ctx.lineTo(x, y + 4); ctx.lineTo(x - 3.5, y); ctx.closePath();
      marksDrawn++;
    }
    ctx.fill();
  }

  function drawLane(l, y, row, current) {
    if (current) { ctx.fillStyle = C.cur; ctx.fillRect(0, y, W, ROW_H); }
    else if (row % 2 === 0) { ctx.fillStyle = C.stripe; ctx.fillRect(gutter, y, W - gutter, ROW_H); }
    // Lifetime: a thin bar from start to end, ticks where the goroutine
    // starts and (unless it outlived the recording) returns.
    const xs = Math.max(X(l.start), gutter), xe = Math.min(X(l.end), W);
    if (xe >= gutter && xs <= W) {
      ctx.fillStyle = l.open ? C.lifeOpen : C.life;
      ctx.fillRect(xs, y + 8, Math.max(xe - xs, 1), 2);
      if (l.g !== 'main') {
        if (X(l.start) >= gutter) { ctx.fillStyle = C.startTick; ctx.fillRect(X(l.start), y + 3, 2, ROW_H - 6); }
        if (!l.open && X(l.end) <= W) { ctx.fillStyle = C.endTick; ctx.fillRect(X(l.end) - 2, y + 3, 2, ROW_H - 6); }
      }
    }
    drawMarks(l.it, IT, l.itMax, y + 2, 7, C.it, C.itWait, HATCH.it, C.itLine, C.itThin);
    drawMarks(l.calls, CA, l.callMax, y + 9, 7, C.call, C.callWait, HATCH.call, C.callLine, C.callThin);
    ctx.fillStyle = C.ev;
    drawEvents(l.events, y + 9);
  }

  // A group's row is a density of its lanes: per pixel column, how many
  // of their iterations (upper band) and calls (lower band) do work there,
  // in four shades, over a grey band where any of them waits.
  let colIt = new Int32Array(0), colCa = new Int32Array(0), colWait = new Int32Array(0);
  const LEVEL_ALPHA = [0, 0.35, 0.55, 0.78, 1]; // 1, 2-3, 4-15, 16 or more marks in a column

  function accumulate(arr, stride, max, col, n) {
    const len = arr.length / stride;
    if (!len) return;
    const tEnd = tAt(W);
    for (let i = lowerBound(arr, stride, tAt(gutter) - max); i < len; i++) {
      const o = i * stride, s = arr[o];
      if (s > tEnd) break;
      const d = arr[o + 1];
      const x1 = Math.min(Math.floor(X(s + d) - gutter), n - 1);
      if (x1 < 0) continue;
      const x0 = Math.max(Math.floor(X(s) - gutter), 0);
      const c = d >= WAIT_US ? colWait : col;
      c[x0]++;
      c[x1 + 1]--;
    }
  }

  // Bins: a group's work and waits over BINS equal parts of the
  // recording, as prefix counts (s[b]: marks that start before bin b, e[b]:
  // marks that end before it), so that a frame whose pixel spans a bin or
  // more reads a column's count as s[last] − e[first] instead of reading
  // every mark: the whole recording, folded, is how the page opens. Built
  // on a group's first such frame.
  const BINS = 2048;
  function groupBins(g) {
    if (g.bins) return g.bins;
    const k = BINS / span;
    const mk = () => ({ s: new Uint32Array(BINS + 1), e: new Uint32Array(BINS + 1) });
    const b = { it: mk(), ca: mk(), wait: mk() };
    const bin = (t) => Math.min(Math.max(Math.floor(t * k), 0), BINS - 1);
    const add = (arr, stride, work) => {
      for (let o = 0; o < arr.length; o += stride) {
        const c = arr[o + 1] >= WAIT_US ? b.wait : work;
        c.s[bin(arr[o]) + 1]++;
        c.e[bin(arr[o] + arr[o + 1]) + 1]++;
      }
    };
    for (let li = g.first; li < g.first + g.count; li++) {
      add(lanes[li].it, IT, b.it);
      add(lanes[li].calls, CA, b.ca);
    }
    for (const c of [b.it, b.ca, b.wait]) {
      for (let i = 1; i <= BINS; i++) { c.s[i] += c.s[i - 1]; c.e[i] += c.e[i - 1]; }
    }
    g.bins = b;
    return b;
  }

  // fromBins fills the column counts (as differences, like accumulate)
  // from a group's bins.
  function fromBins(b, n) {
    const k = BINS / span;
    let b0 = Math.min(Math.max(Math.floor(tAt(gutter) * k), 0), BINS);
    for (let x = 0; x < n - 2; x++) {
      const b1 = Math.min(Math.max(Math.floor(tAt(gutter + x + 1) * k), 0), BINS);
      if (b1 > b0) {
        const it = b.it.s[b1] - b.it.e[b0], ca = b.ca.s[b1] - b.ca.e[b0], w = b.wait.s[b1] - b.wait.e[b0];
        colIt[x] += it; colIt[x + 1] -= it;
        colCa[x] += ca; colCa[x + 1] -= ca;
        colWait[x] += w; colWait[x + 1] -= w;
      }
      b0 = b1;
    }
  }

  // drawGroup draws a group's row: its density, read in one pass over the
  // columns, which also clears them for the next row.
  const rLevelIt = [[], [], [], [], []], rLevelCa = [[], [], [], [], []];
  function drawGroup(g, y, open, current) {
    ctx.fillStyle = current ? C.cur : open ? C.groupOpen : C.groupRow;
    ctx.fillRect(gutter, y, W - gutter, ROW_H);
    const n = Math.max(Math.ceil(W - gutter), 1) + 2;
    if (colIt.length < n + 1) { colIt = new Int32Array(n + 1); colCa = new Int32Array(n + 1); colWait = new Int32Array(n + 1); }
    if (BINS / span / view.scale >= 1) fromBins(groupBins(g), n);
    else {
      for (let li = g.first; li < g.first + g.count; li++) {
        const l = lanes[li];
        accumulate(l.it, IT, l.itMax, colIt, n);
        accumulate(l.calls, CA, l.callMax, colCa, n);
      }
    }
    for (let lv = 1; lv <= 4; lv++) { rLevelIt[lv].length = 0; rLevelCa[lv].length = 0; }
    rWait.length = 0;
    let aI = 0, aC = 0, aW = 0, runI = 0, runC = 0, sI = 0, sC = 0, wFrom = -1;
    for (let x = 0; x <= n; x++) {
      let lI = 0, lC = 0;
      if (x < n) {
        aI += colIt[x]; aC += colCa[x]; aW += colWait[x];
        lI = aI <= 0 ? 0 : aI === 1 ? 1 : aI < 4 ? 2 : aI < 16 ? 3 : 4;
        lC = aC <= 0 ? 0 : aC === 1 ? 1 : aC < 4 ? 2 : aC < 16 ? 3 : 4;
      }
      colIt[x] = 0; colCa[x] = 0; colWait[x] = 0;
      if (lI !== runI) { if (runI) rLevelIt[runI].push(gutter + sI, x - sI); runI = lI; sI = x; }
      if (lC !== runC) { if (runC) rLevelCa[runC].push(gutter + sC, x - sC); runC = lC; sC = x; }
      if (aW > 0 && x < n) { if (wFrom < 0) wFrom = x; } else if (wFrom >= 0) { rWait.push(gutter + wFrom, x - wFrom); wFrom = -1; }
    }
    // Waiting: one grey band wherever any lane of the group waits; work
    // over it in four shades.
    ctx.fillStyle = C.groupWait;
    fillRects(rWait, y + 6, 6);
    for (const [levels, color, top] of [[rLevelIt, C.it, y + 2], [rLevelCa, C.call, y + 9]]) {
      ctx.fillStyle = color;
      for (let lv = 1; lv <= 4; lv++) {
        if (!levels[lv].length) continue;
        ctx.globalAlpha = LEVEL_ALPHA[lv];
        fillRects(levels[lv], top, 7);
      }
    }
    ctx.globalAlpha = 1;
  }

  function drawAxis() {
    ctx.fillStyle = C.bg;
    ctx.fillRect(0, OV_H, W, AXIS_H);
    const stepUs = tickStep(80 / view.scale);
    const from = Math.max(Math.ceil(tAt(gutter) / stepUs), 0);
    ctx.font = FONT;
    ctx.textBaseline = 'middle';
    ctx.textAlign = 'left';
    const ticks = [];
    for (let k = from; ; k++) {
      const t = k * stepUs, x = X(t);
      if (x > W) break;
      const px = Math.round(x) + 0.5;
      ctx.fillStyle = C.grid;
      ctx.fillRect(px, TOP, 1, H - TOP);
      ctx.fillStyle = C.axis;
      ctx.fillRect(px, TOP - 6, 1, 6);
      const label = fmtTick(t, stepUs);
      ctx.fillText(label, px + 3, OV_H + AXIS_H / 2 - 1);
      ticks.push({ t, label });
    }
    lastTicks = { step: stepUs, ticks };
    ctx.fillStyle = C.gutterLine;
    ctx.fillRect(0, TOP - 1, W, 1);
    ctx.fillStyle = C.gutter;
    ctx.fillRect(0, OV_H, gutter, AXIS_H - 1);
  }
  let lastTicks = { step: 0, ticks: [] };

  // The overview: the whole recording across the plot's width, how much
  // work happens when (all lanes), the visible window as a box to drag,
  // and the current step as a red tick.
  let overviewImage = null;
  const ovX = (t) => gutter + 4 + (t / span) * (W - gutter - 8);
  const ovT = (x) => ((x - gutter - 4) / Math.max(W - gutter - 8, 1)) * span;

  function buildOverview() {
    const n = Math.max(Math.round(W - gutter - 8), 1);
    const col = new Float64Array(n + 1);
    const k = n / span;
    const add = (arr, stride) => {
      for (let o = 0; o < arr.length; o += stride) {
        if (arr[o + 1] >= WAIT_US) continue;
        const x = Math.min(Math.floor(arr[o] * k), n - 1);
        if (x >= 0) col[x]++;
      }
    };
    for (const l of lanes) { add(l.it, IT); add(l.calls, CA); }
    let max = 1;
    for (let x = 0; x < n; x++) if (col[x] > max) max = col[x];
    const c = document.createElement('canvas');
    c.width = Math.round(W * dpr);
    c.height = Math.round(OV_H * dpr);
    const g = c.getContext('2d');
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    g.fillStyle = C.gutter;
    g.fillRect(0, 0, W, OV_H);
    g.fillStyle = '#ffffff';
    g.fillRect(gutter, 3, W - gutter, OV_H - 6);
    g.fillStyle = C.ovBar;
    for (let x = 0; x < n; x++) {
      if (!col[x]) continue;
      const h = Math.max(1.5, Math.sqrt(col[x] / max) * (OV_H - 10));
      g.fillRect(gutter + 4 + x, OV_H - 5 - h, 1, h);
    }
    ctx.font = g.font = FONT_S;
    g.fillStyle = C.muted;
    g.textBaseline = 'middle';
    g.fillText(cutEnd(msg('overview') + ' · ' + fmtDur(D.duration), gutter - 16), 8, OV_H / 2);
    overviewImage = c;
  }

  function drawOverview(cur) {
    if (!overviewImage) buildOverview();
    ctx.drawImage(overviewImage, 0, 0, W, OV_H);
    const a = Math.max(ovX(Math.max(tAt(gutter), 0)), gutter + 1), b = Math.min(ovX(Math.min(tAt(W), span)), W - 1);
    const w = Math.max(b - a, 3);
    ctx.fillStyle = C.ovWin;
    ctx.fillRect(a, 2, w, OV_H - 4);
    ctx.strokeStyle = C.it;
    ctx.lineWidth = 1;
    ctx.strokeRect(Math.round(a) + 0.5, 2.5, Math.round(w) - 1, OV_H - 5);
    if (cur) {
      const x = Math.round(ovX(markSpan(cur)[0]));
      ctx.fillStyle = C.curLine;
      ctx.fillRect(x, 2, 2, OV_H - 4);
    }
    ctx.fillStyle = C.gutterLine;
    ctx.fillRect(0, OV_H - 1, W, 1);
  }

  // markY is the middle of a mark's band in a row at y.
  const markY = (kind, y) => y + (kind === 1 ? 5 : kind === 2 ? 13 : 9);

  // flowPoint is where an arrow meets the mark (li, kind, m): on its row
  // (or its collapsed group's), at the time of its span closest to near.
  function flowPoint(li, kind, m, near) {
    const r = laneRow[li];
    if (r < 0) return null;
    const l = lanes[li];
    const [s, e] = kind === 0 ? [l.start, l.end] : spanOf(l, kind, m); // kind 0: the lifetime span
    const t = Math.min(Math.max(near, s), e);
    return { x: X(t), y: markY(kind, TOP + rowY[r] - view.y), t };
  }

  function arrow(a, b, color) {
    const dx = b.x - a.x, dy = b.y - a.y;
    const bend = Math.max(28, Math.abs(dx) / 2);
    ctx.strokeStyle = color;
    ctx.fillStyle = color;
    ctx.beginPath();
    ctx.moveTo(a.x, a.y);
    let cx, cy;
    if (Math.abs(dy) < 2) { // the same row: an arc above it
      cx = b.x - Math.max(12, Math.abs(dx) / 3); cy = b.y - 14;
      ctx.bezierCurveTo(a.x + Math.max(12, Math.abs(dx) / 3), a.y - 14, cx, cy, b.x, b.y);
    } else {
      cx = b.x - bend; cy = b.y;
      ctx.bezierCurveTo(a.x + bend, a.y, cx, cy, b.x, b.y);
    }
    ctx.stroke();
    const ang = Math.atan2(b.y - cy, b.x - cx);
    ctx.beginPath();
    ctx.moveTo(b.x, b.y);
    ctx.lineTo(b.x - 7 * Math.cos(ang - 0.45), b.y - 7 * Math.sin(ang - 0.45));
    ctx.lineTo(b.x - 7 * Math.cos(ang + 0.45), b.y - 7 * Math.sin(ang + 0.45));
    ctx.closePath();
    ctx.fill();
  }

  // drawFlows draws the current step's causal links: an arrow from each
  // cause to it and from it to each effect (at most 150 each way).
  function drawFlows(cur) {
    let drawn = 0;
    if (!cur || cur.kind > 2) return 0;
    const li = cur.lane.i, m = cur.kind === 0 ? 0 : cur.mark;
    const f = flowsOf(li, cur.kind, m);
    if (!f.causes.length && !f.effects.length) return 0;
    const [s] = markSpan(cur);
    const me = flowPoint(li, cur.kind, m, s);
    if (!me) return 0;
    const F = D.flows;
    ctx.save();
    ctx.lineWidth = 1.6;
    ctx.globalAlpha = 0.9;
    for (const o of f.causes.slice(0, 150)) {
      const p = flowPoint(F[o], F[o + 1], F[o + 2], s);
      if (p && (p.x >= gutter || me.x >= gutter)) { arrow(p, me, C.cause); drawn++; }
    }
    for (const o of f.effects.slice(0, 150)) {
      const es = spanOf(lanes[F[o + 3]], F[o + 4], F[o + 5])[0];
      const p = flowPoint(F[o + 3], F[o + 4], F[o + 5], es);
      const from = flowPoint(li, cur.kind, m, es);
      if (p && from && (p.x >= gutter || from.x >= gutter)) { arrow(from, p, C.effect); drawn++; }
    }
    ctx.restore();
    return drawn;
  }

  // frameMark outlines the marks [s, e] in the row at y.
  function frameMark(s, e, y, color, width) {
    const x0 = Math.max(X(s), gutter), x1 = Math.min(Math.max(X(e), X(s) + 1), W);
    if (x1 < gutter || x0 > W) return;
    ctx.strokeStyle = color;
    ctx.lineWidth = width;
    ctx.strokeRect(Math.round(x0 - 3) + 0.5, y + 1.5, Math.round(x1 - x0 + 6), ROW_H - 3);
  }

  function render() {
    const t0 = performance.now();
    marksDrawn = 0;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.fillStyle = C.bg;
    ctx.fillRect(0, 0, W, H);
    const cur = api.step >= 0 ? step(api.step) : null;
    const curRow = cur ? laneRow[cur.lane.i] : -1;
    const ph = plotH();

    drawOverview(cur);
    drawAxis(); // the vertical grid too, under the lanes

    let r = rowAt(view.y);
    if (r < 0) r = 0;
    let lanesDrawn = 0, groupsDrawn = 0, full = 0;
    ctx.save();
    ctx.beginPath();
    ctx.rect(0, TOP, W, ph);
    ctx.clip();
    const visible = [];
    for (; r < rowY.length; r++) {
      const y = TOP + rowY[r] - view.y;
      if (y > H) break;
      if (rowY[r] + rowH[r] < view.y) continue;
      visible.push(r);
      if (y >= TOP - 0.5 && y + rowH[r] <= H + 0.5) full++;
      switch (rowKind[r]) {
        case R_INST:
          ctx.fillStyle = C.head;
          ctx.fillRect(0, y, W, HEAD_H);
          break;
        case R_GROUP: {
          const g = groups[rowRef[r]];
          drawGroup(g, y, !!matches || isOpen(g), r === curRow);
          groupsDrawn++;
          break;
        }
        default:
          drawLane(lanes[rowRef[r]], y, r, r === curRow);
          lanesDrawn++;
      }
    }

    // The current step: a line at its time and a frame around its mark,
    // on its lane or on the group it is folded into.
    if (cur) {
      const [s, e] = markSpan(cur);
      const x = X(s);
      if (x >= gutter && x <= W) {
        ctx.fillStyle = C.curLine;
        ctx.globalAlpha = 0.55;
        ctx.fillRect(Math.round(x), TOP, 1, ph);
        ctx.globalAlpha = 1;
      }
      if (curRow >= 0) frameMark(s, e, TOP + rowY[curRow] - view.y, C.curLine, 2);
    }
    if (hover && hover.li >= 0 && hover.kind >= 1 && hover.kind <= 3 && laneRow[hover.li] >= 0) {
      const [s, e] = hover.span;
      frameMark(s, e, TOP + rowY[laneRow[hover.li]] - view.y, C.hover, 1);
    }
    const flowsDrawn = drawFlows(cur);

    drawGutter(visible, curRow);

    drawSticky(visible);

    // A scroll indicator when the rows do not fit.
    if (contentH > ph) {
      const bh = Math.max(20, (ph * ph) / contentH);
      const by = TOP + (view.y / (contentH - ph)) * (ph - bh);
      ctx.fillStyle = 'rgba(31, 35, 40, 0.25)';
      ctx.fillRect(W - 5, by, 4, bh);
    }
    ctx.restore();

    api.visibleRows = full;
    api.drawnLanes = lanesDrawn;
    api.drawnGroups = groupsDrawn;
    api.drawnMarks = marksDrawn;
    api.drawnFlows = flowsDrawn;
    api.frameMs = performance.now() - t0;
  }

  const INDENT = 12;

  // The gutter (the groups' and lanes' labels) changes only when the rows
  // scroll or change, or the step moves, not when the time zooms or pans:
  // it is drawn once into an image that later frames copy.
  let gutterImage = null, gutterKey = '', rowsVersion = 0;
  function drawGutter(visible, curRow) {
    const ph = plotH();
    const key = [view.y, rowsVersion, curRow, gutter, H, dpr, api.lang].join('|');
    if (key !== gutterKey) {
      if (!gutterImage) gutterImage = document.createElement('canvas');
      const w = Math.round(gutter * dpr), h = Math.round(H * dpr);
      if (gutterImage.width !== w || gutterImage.height !== h) { gutterImage.width = w; gutterImage.height = h; }
      const g = gutterImage.getContext('2d');
      g.setTransform(dpr, 0, 0, dpr, 0, 0);
      g.clearRect(0, 0, gutter, H);
      g.fillStyle = C.gutter;
      g.fillRect(0, TOP, gutter, ph);
      g.save();
      g.beginPath();
      g.rect(0, TOP, gutter, ph);
      g.clip();
      g.textBaseline = 'middle';
      for (const r of visible) if (rowKind[r] !== R_INST) drawLabel(g, r, TOP + rowY[r] - view.y, r === curRow);
      g.restore();
      g.fillStyle = C.gutterLine;
      g.fillRect(gutter - 1, TOP, 1, ph);
      gutterKey = key;
    }
    ctx.drawImage(gutterImage, 0, 0, gutter, H);
    ctx.textBaseline = 'middle';
    for (const r of visible) if (rowKind[r] === R_INST) drawLabel(ctx, r, TOP + rowY[r] - view.y, false);
  }
  // drawLabel draws row r's label on c: an instance's heading (across the
  // whole width), a group's or a lane's (in the gutter).
  function drawLabel(c, r, y, isCur) {
    const kind = rowKind[r], depth = rowDepth[r];
    c.textAlign = 'left';
    if (kind === R_INST) {
      const ii = rowRef[r];
      // An instance's heading spans the whole width: nothing else is drawn in it.
      c.fillStyle = C.head;
      c.fillRect(0, y, W, HEAD_H);
      c.font = FONT_B;
      c.fillStyle = C.headText;
      c.fillText(fitText('i' + ii, instName(ii), W - 120, FONT_B), 8, y + HEAD_H / 2);
      const w = c.measureText(fitText('i' + ii, instName(ii), W - 120, FONT_B)).width;
      c.font = FONT_S;
      c.fillStyle = C.muted;
      c.fillText(msg('laneCount', { n: fmtNum(D.instances[ii].count) }), 16 + w, y + HEAD_H / 2);
      return;
    }
    const x = 8 + depth * INDENT;
    if (isCur) { c.fillStyle = C.cur; c.fillRect(0, y, gutter, ROW_H); }
    if (kind === R_GROUP) {
      const g = groups[rowRef[r]];
      const open = !!matches || isOpen(g);
      if (!isCur) { c.fillStyle = open ? C.groupOpen : C.groupRow; c.fillRect(0, y, gutter - 1, ROW_H); }
      c.fillStyle = C.muted;
      c.font = FONT_S;
      const count = matches ? `${countMatches(g)}/${g.count}` : String(g.count);
      c.textAlign = 'right';
      c.fillText(count, gutter - 8, y + ROW_H / 2);
      const cw = c.measureText(count).width;
      c.textAlign = 'left';
      c.fillStyle = C.text;
      c.fillText(open ? '▾' : '▸', x, y + ROW_H / 2);
      const font = isCur ? FONT_B : FONT;
      c.font = font;
      c.fillStyle = C.headText;
      c.fillText(groupText(g, gutter - x - 14 - cw - 12, font), x + 12, y + ROW_H / 2);
      return;
    }
    const li = rowRef[r], l = lanes[li];
    const font = isCur ? FONT_B : FONT;
    c.font = font;
    c.fillStyle = l.g === 'main' ? C.muted : C.text;
    c.fillText(laneText(li, depth, gutter - x - 12, font), x + 4, y + ROW_H / 2);
  }

  function countMatches(g) {
    let n = 0;
    for (let li = g.first; li < g.first + g.count; li++) n += matches[li];
    return n;
  }

  // drawSticky keeps the top row's instance (and the open group it is in)
  // named at the top, until the next instance's heading pushes it away.
  function drawSticky(visible) {
    sticky = null;
    if (!visible.length) return;
    const top = visible[0], ii = rowInst[top];
    if (headRow[ii] < 0 || TOP + rowY[headRow[ii]] - view.y >= TOP) return;
    const next = headRow.findIndex((hr, j) => j > ii && hr >= 0);
    const ny = next >= 0 ? TOP + rowY[headRow[next]] - view.y : Infinity;
    const y = Math.min(TOP, ny - HEAD_H);
    sticky = { ii, y };
    let name = instName(ii);
    const inner = rowKind[top] === R_LANE ? component(lanes[rowRef[top]]) : rowKind[top] === R_GROUP && rowDepth[top] > 0 ? groups[groups[rowRef[top]].parent] : null;
    if (inner && inner.count > 1 && groupRow[inner.i] >= 0 && groupRow[inner.i] < top) name += ' › ' + inner.name;
    ctx.fillStyle = C.head;
    ctx.fillRect(0, y, W, HEAD_H);
    ctx.fillStyle = C.gutterLine;
    ctx.fillRect(0, y + HEAD_H - 1, W, 1);
    ctx.font = FONT_B;
    ctx.fillStyle = C.headText;
    ctx.textAlign = 'left';
    ctx.fillText(fitText('s' + name, name, W - 16, FONT_B), 8, y + HEAD_H / 2);
  }

  // ---- Hit testing and details -------------------------------------------

  // nearest finds the mark of arr closest to time t within tol, measuring
  // each mark as drawn (at least a pixel wide); it returns {m, dist, count}
  // (count: the marks within tol) or null.
  function nearest(arr, stride, isPoint, max, t, tol) {
    const n = arr.length / stride, px = 1 / view.scale;
    let i = lowerBound(arr, stride, t - tol - max - px);
    let best = -1, bestD = Infinity, bestLen = Infinity, count = 0;
    for (; i < n; i++) {
      const o = i * stride, s = arr[o];
      if (s > t + tol) break;
      const len = isPoint ? 0 : arr[o + 1];
      const e = s + Math.max(len, px);
      const d = t < s ? s - t : t > e ? t - e : 0;
      if (d > tol) continue;
      count++;
      if (d < bestD || (d === bestD && len < bestLen)) { best = i; bestD = d; bestLen = len; }
    }
    return best < 0 ? null : { m: best, dist: bestD, count };
  }

  // Where each kind of mark is drawn in a lane: [top, bottom) in pixels,
  // and the order in which equally close marks win (the smaller first).
  const BANDS = { 1: [2, 9], 2: [9, 16], 3: [6, 13] };
  const WIN = { 3: 0, 2: 1, 1: 2 };

  // markNear returns the mark of lanes [lo, hi) closest to (t, ly) in a
  // row: {li, kind, m, count, score} or null.
  function markNear(lo, hi, t, ly, tol) {
    let best = null;
    for (let li = lo; li < hi; li++) {
      const l = lanes[li];
      const consider = (kind, c) => {
        if (!c) return;
        const [a, b] = BANDS[kind];
        const dy = ly < a ? a - ly : ly >= b ? ly - b + 1 : 0;
        const score = c.dist * view.scale + dy;
        if (score > 6) return;
        if (!best || score < best.score || (score === best.score && WIN[kind] < WIN[best.kind])) {
          best = { li, kind, m: c.m, count: c.count, score };
        }
      };
      consider(3, nearest(l.events, EV, true, 0, t, tol));
      consider(2, nearest(l.calls, CA, false, l.callMax, t, tol));
      consider(1, nearest(l.it, IT, false, l.itMax, t, tol));
    }
    return best;
  }

  // hit returns what is under the viewport point (x, y): the mark closest
  // to it (horizontal distance plus the distance to the mark's band), else
  // the lane, the group, the instance, or null.
  function hit(x, y) {
    if (y < TOP) return null;
    if (sticky && y >= sticky.y && y < sticky.y + HEAD_H) return { li: -1, inst: sticky.ii, kind: 6 };
    const cy = y - TOP + view.y;
    const r = rowAt(cy);
    if (r < 0) return null;
    const kind = rowKind[r], ref = rowRef[r];
    if (kind === R_INST) return { li: -1, inst: ref, kind: 6 };
    const t = tAt(x), tol = 4 / view.scale, ly = cy - rowY[r];
    if (kind === R_GROUP) {
      const g = groups[ref];
      if (x >= gutter) {
        const best = markNear(g.first, g.first + g.count, t, ly, tol);
        if (best) return markHit(best);
      }
      return { li: -1, g: g.i, kind: 7, gutter: x < gutter };
    }
    const l = lanes[ref];
    if (x < gutter) return { li: ref, kind: 5 };
    const best = markNear(ref, ref + 1, t, ly, tol);
    if (!best) {
      if (t >= l.start - tol && t <= l.end + tol) return { li: ref, kind: 5 };
      return null;
    }
    return markHit(best);
  }

  function markHit(b) {
    return { li: b.li, kind: b.kind, m: b.m, count: b.count, span: spanOf(lanes[b.li], b.kind, b.m) };
  }

  function row(k, v, raw) {
    return `<tr><td>${esc(k)}</td><td>${raw ? v : esc(v)}</td></tr>`;
  }

  function attrRows(set) {
    const a = D.attrs[set];
    let out = '';
    for (let i = 0; i < a.length; i += 2) out += row(S[a[i]], `<code>${esc(valueText(a[i + 1]))}</code>`, true);
    return out;
  }

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
      out += row(f('end'), l.open ? fmtOff(l.end) + ' (' + msg('open') + ')' : fmtOff(l.end));
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
      out += row(f('start'), fmtOff(s)) + row(f('end'), fmtOff(e)) + row(f('duration'), fmtDur(e - s));
      if (h.kind === 1) {
        const o = h.m * IT;
        out += row(f('iteration'), l.it[o + 3]);
        if (l.it[o + 4]) out += row(f('skipped'), l.it[o + 4]);
        set = l.it[o + 5];
      } else set = l.calls[h.m * CA + 3];
    }
    out += '</table>';
    if (h.count > 1) out += `<p class="hint">${esc(msg('more', { n: h.count - 1 }))}</p>`;
    const a = attrRows(set);
    if (a) out += `<h3>${esc(f('attributes'))}</h3><table>${a}</table>`;
    return out;
  }

  let hover = null, pinned = null;
  function showDetails() {
    $('details').innerHTML = detailsHTML(pinned || hover);
  }

  // ---- Steps and narrative ----------------------------------------------

  // quoteHTML is the article's sentence as it is, and under it, in a
  // language other than the article's, kubeloom's rendering of it,
  // labelled as such.
  function quoteHTML(quote, rendering, article) {
    let out = `<h3>${esc(msg('article'))}</h3><blockquote lang="${esc(D.articles)}">${esc(quote)}</blockquote>`;
    if (rendering) out += `<p class="rendered" lang="${esc(L.code)}"><span>${esc(msg('rendered'))}</span> ${esc(rendering)}</p>`;
    if (article) out += `<p class="src">${esc(article)}</p>`;
    return out;
  }

  // flowsHTML lists what caused the step and what it caused, each a
  // button to that step.
  function flowsHTML(s) {
    const f = stepFlows(s);
    const F = D.flows;
    const list = (title, offs, at) => {
      if (!offs.length) return '';
      let out = `<h3>${esc(title)}</h3><ul class="flows">`;
      for (const o of offs.slice(0, 6)) {
        const li = F[o + at], kind = F[o + at + 1], m = F[o + at + 2], l = lanes[li];
        const si = stepOf(li, kind, m);
        const text = `${l.label} · ${markName(l, kind, m)} · ${fmtOff(spanOf(l, kind, m)[0])}`;
        out += si >= 0 ? `<li><button type="button" class="flow" data-step="${si}">${esc(text)}</button></li>` : `<li>${esc(text)}</li>`;
      }
      if (offs.length > 6) out += `<li class="hint">${esc(msg('moreFlows', { n: offs.length - 6 }))}</li>`;
      return out + '</ul>';
    };
    return list(msg('causedBy'), f.causes, 0) + list(msg('ledTo'), f.effects, 3);
  }

  function narrativeHTML() {
    if (!nSteps) return `<h2>${esc(msg('introTitle'))}</h2><p>${esc(msg('noSteps'))}</p>`;
    if (api.step < 0) return `<h2>${esc(msg('introTitle'))}</h2><p>${esc(msg('intro', { n: nSteps }))}</p>`;
    const s = step(api.step), l = s.lane;
    const [at] = markSpan(s);
    const inst = instName(l.inst);
    let n = 0;
    if (s.kind === 1) n = l.it[s.mark * IT + 3];
    const head = msg('head.' + KINDS[s.kind], { lane: l.label, name: markName(l, s.kind, s.mark), n, duration: fmtDur(l.end - l.start) });
    const where = groupPath(l);
    let out = `<div class="where">${esc(msg('stepOf', { i: s.i + 1, n: nSteps }))} · ${esc(fmtOff(at))} · ${esc(inst)}${where ? ' · ' + esc(where) : ''}</div>`;
    out += `<h2><span class="kind k${s.kind}">${esc(msg('kinds.' + KINDS[s.kind]))}</span>${esc(head)}</h2>`;
    const set = s.kind === 1 ? l.it[s.mark * IT + 5] : s.kind === 2 ? l.calls[s.mark * CA + 3] : s.kind === 3 ? l.events[s.mark * EV + 2] : 0;
    const key = attr(set, 'k8s.object.key');
    if (key !== undefined) out += `<p>${esc(msg('object'))} <code>${esc(key)}</code>${(v => v ? ' · ' + esc(v) : '')(attr(set, 'k8s.event.type'))}</p>`;
    if (s.kind === 1 && l.it[s.mark * IT + 4] > 0) out += `<p>${esc(msg('skipped', { k: l.it[s.mark * IT + 4] }))}</p>`;
    out += flowsHTML(s);
    const si = D.stepStartup ? D.stepStartup[s.i] : undefined;
    if (si !== undefined) { // a startup step the catalog tells
      const st = D.startup[si];
      const story = storyOf(st);
      out += `<h3>${esc(msg('what'))}</h3><p>${esc(story.summary)}</p>`;
      if (st.quote) out += quoteHTML(st.quote, story.rendering, st.article);
      if (st.function) out += `<h3>${esc(msg('source'))}</h3><p><code>${esc(st.function)}</code></p><p class="src"><code>${esc(st.file)}</code></p>`;
      return out;
    }
    const e = l.entry;
    if (!e) {
      out += `<p>${esc(l.g === 'main' ? msg('mainLane') : msg('unknown', { goroutine: l.g }))}</p>`;
      return out;
    }
    const story = storyOf(e);
    out += `<h3>${esc(msg('what'))}</h3><p>${esc(story.summary)}</p>`;
    const how = [e.kind, e.period ? msg('every', { period: fmtDur(Math.round(e.period * 1e6)) }) : msg('eventDriven')].filter(Boolean).join(', ');
    if (e.quote) out += quoteHTML(e.quote, story.rendering, e.article);
    out += `<h3>${esc(msg('source'))}</h3><p><code>${esc(e.function)}</code></p><p class="src"><code>${esc(e.file)}</code> · ${esc(how)}</p>`;
    if (story.now) out += `<h3>${esc(msg('now'))}</h3><p>${esc(story.now)}</p>`;
    return out;
  }

  function showNarrative() {
    $('narrative').innerHTML = narrativeHTML();
    $('step-pos').textContent = nSteps ? (api.step < 0 ? '– / ' : fmtNum(api.step + 1) + ' / ') + fmtNum(nSteps) : '0 / 0';
    $('step-prev').disabled = api.step < 0;
    $('step-first').disabled = api.step < 0;
    $('step-next').disabled = api.step >= nSteps - 1;
    $('zoom-step').disabled = api.step < 0;
  }

  // revealRow scrolls the rows so that step s's row is in view.
  function revealRow(s) {
    const r = laneRow[s.lane.i];
    if (r < 0) return;
    const ph = plotH(), ry = rowY[r];
    if (ry < view.y + HEAD_H + ROW_H || ry + ROW_H > view.y + ph - ROW_H) view.y = ry - ph / 3;
    clampView();
  }

  // reveal scrolls and pans so that step s is in view.
  function reveal(s) {
    revealRow(s);
    const [a, b] = markSpan(s);
    const margin = 40 / view.scale;
    if (a < tAt(gutter) + margin || a > tAt(W) - margin) {
      view.t0 = (a + b) / 2 - plotW() / 2 / view.scale;
      fitted = false;
    }
    clampView();
  }

  function go(i) {
    if (!nSteps) return;
    i = Math.min(Math.max(i, -1), nSteps - 1);
    api.step = i;
    if (i >= 0) reveal(step(i));
    showNarrative();
    changed();
  }

  // follow goes to the first thing the current step caused (f).
  function follow() {
    if (api.step < 0) return;
    const s = step(api.step);
    const f = stepFlows(s);
    let best = -1;
    for (const o of f.effects) {
      const si = stepOf(D.flows[o + 3], D.flows[o + 4], D.flows[o + 5]);
      if (si > api.step && (best < 0 || si < best)) best = si;
    }
    if (best >= 0) go(best);
  }

  function setLang(lang) {
    L = D.langs.find((l) => l.code === lang) || D.langs[0];
    api.lang = L.code;
    document.documentElement.lang = L.tag;
    // The button offers the next language by its name, and says so in it.
    const b = $('lang'), next = nextLang();
    b.hidden = D.langs.length < 2;
    b.textContent = next.name;
    b.title = msgIn(next, 'switchTo');
    for (const el of document.querySelectorAll('[data-t]')) el.textContent = msg(el.dataset.t);
    for (const el of document.querySelectorAll('[data-title]')) el.title = msg(el.dataset.title);
    $('search').placeholder = msg('search');
    $('stats').textContent = msg('stats', { spans: fmtNum(D.spans), lanes: fmtNum(lanes.length), duration: fmtDur(D.duration) });
    overviewImage = null;
    showControls();
    showNarrative();
    showDetails();
    changed();
  }

  // showControls updates what depends on the groups and the search.
  function showControls() {
    const e = $('expand');
    e.hidden = !groups.some((g) => g.count > 1);
    e.textContent = msg(groups.some((g) => g.count > 1 && isOpen(g)) ? 'collapseAll' : 'expandAll');
    e.disabled = !!matches;
    const c = $('search-count');
    c.textContent = matches ? (shownLanes ? msg('searchCount', { n: fmtNum(shownLanes), total: fmtNum(lanes.length) }) : msg('noMatch')) : '';
  }

  // regroup lays the rows out again after groups opened or closed or the
  // search changed, keeping the current step's row in view.
  function regroup() {
    buildRows();
    clampView();
    if (api.step >= 0) revealRow(step(api.step));
    showControls();
    changed();
  }

  function toggleGroup(g) {
    if (matches || g.count < 2) return;
    setOpen(g, !isOpen(g));
    regroup();
  }

  function expandAll(open) {
    for (const g of groups) if (g.count > 1) setOpen(g, open);
    regroup();
  }

  // toggleStepGroup is e: open the groups that hide the current step's
  // lane, or, when it shows, fold its innermost group again.
  function toggleStepGroup() {
    if (api.step < 0 || matches) return;
    const l = step(api.step).lane;
    const r = laneRow[l.i];
    const c = component(l), f = family(l);
    if (r >= 0 && rowKind[r] === R_LANE) {
      const g = f && f.count > 1 ? f : c;
      if (g && g.count > 1) setOpen(g, false);
    } else {
      if (c) setOpen(c, true);
      if (f) setOpen(f, true);
    }
    regroup();
  }

  function search(q) {
    setQuery(q);
    if ($('search').value !== query) $('search').value = query;
    regroup();
  }

  // ---- The URL fragment -------------------------------------------------

  // The fragment keeps what a teacher bookmarks: the step, the visible
  // window (µs), the groups opened (or, in a small recording, closed), the
  // search and the language:
  // #step=42&t=1200000,3400000&open=cm-0%2Fevents,node-1%2Fpod%20workers&lang=zh
  function hashString() {
    const p = [];
    if (api.step >= 0) p.push('step=' + api.step);
    if (!fitted) p.push('t=' + Math.round(view.t0) + ',' + Math.round(tAt(W)));
    if (flipped.size) {
      const keys = [...flipped].map((i) => encodeURIComponent(groups[i].key)).sort();
      p.push((defaultOpen ? 'shut=' : 'open=') + keys.join(','));
    }
    if (query) p.push('q=' + encodeURIComponent(query));
    if (api.lang !== D.langs[0].code) p.push('lang=' + encodeURIComponent(api.lang));
    return p.length ? '#' + p.join('&') : '';
  }

  let hashTimer = 0;
  function saveHash() {
    clearTimeout(hashTimer);
    hashTimer = 0;
    if (!api.ready) return;
    const h = hashString();
    if (location.hash === h || (!h && !location.hash)) return;
    try {
      history.replaceState(null, '', h || location.pathname + location.search);
    } catch (e) { /* some browsers refuse it for file: URLs; the fragment is a convenience */ }
  }
  // saveHashSoon saves it once the view has settled: browsers limit how
  // often a page may replace its URL.
  function saveHashSoon() {
    if (!api.ready) return;
    clearTimeout(hashTimer);
    hashTimer = setTimeout(saveHash, 150);
  }

  function loadHash() {
    const out = { step: -1, lang: D.langs[0].code, t: null, flip: [], q: '' };
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

  // ---- Input --------------------------------------------------------------

  let drag = null, ovDrag = null, pinch = null;
  const touches = new Map();
  const local = (e) => { const r = canvas.getBoundingClientRect(); return { x: e.clientX - r.left, y: e.clientY - r.top }; };

  canvas.addEventListener('pointerdown', (e) => {
    const p = local(e);
    canvas.setPointerCapture(e.pointerId);
    if (e.pointerType === 'touch') {
      touches.set(e.pointerId, p);
      if (touches.size === 2) {
        const [a, b] = [...touches.values()];
        const mid = Math.max((a.x + b.x) / 2, gutter);
        pinch = { d: Math.max(Math.abs(a.x - b.x), 10), scale: view.scale, t: tAt(mid) };
        drag = null;
        return;
      }
    }
    if (e.button !== 0) return;
    if (p.y < OV_H && p.x >= gutter) { // the overview: drag the window
      const t = ovT(p.x), a = tAt(gutter), b = tAt(W);
      ovDrag = { offset: t >= a && t <= b ? t - a : (b - a) / 2 };
      view.t0 = t - ovDrag.offset;
      fitted = false;
      clampView();
      changed();
      return;
    }
    drag = { x: e.clientX, y: e.clientY, t0: view.t0, vy: view.y, moved: false };
  });
  canvas.addEventListener('pointermove', (e) => {
    const p = local(e);
    if (touches.has(e.pointerId)) touches.set(e.pointerId, p);
    if (pinch) {
      if (touches.size < 2) return;
      const [a, b] = [...touches.values()];
      const mid = Math.max((a.x + b.x) / 2, gutter);
      zoomTo(pinch.scale * Math.max(Math.abs(a.x - b.x), 10) / pinch.d, pinch.t, mid);
      return;
    }
    if (ovDrag) {
      view.t0 = ovT(p.x) - ovDrag.offset;
      fitted = false;
      clampView();
      changed();
      return;
    }
    if (drag) {
      const dx = e.clientX - drag.x, dy = e.clientY - drag.y;
      if (!drag.moved && Math.abs(dx) + Math.abs(dy) < 4) return;
      if (!drag.moved) { drag.moved = true; canvas.classList.add('dragging'); }
      view.t0 = drag.t0 - dx / view.scale;
      view.y = drag.vy - dy;
      fitted = false;
      clampView();
      changed();
      return;
    }
    const h = hit(p.x, p.y);
    canvas.classList.toggle('clickable', !!h && h.kind === 7);
    if (!sameHit(h, hover)) {
      hover = h;
      if (!pinned) showDetails();
      requestRender();
    }
  });
  const endPointer = (e) => {
    touches.delete(e.pointerId);
    if (touches.size < 2) pinch = null;
  };
  canvas.addEventListener('pointercancel', (e) => { endPointer(e); drag = null; ovDrag = null; });
  canvas.addEventListener('pointerup', (e) => {
    endPointer(e);
    if (ovDrag) { ovDrag = null; return; }
    if (!drag) return;
    const moved = drag.moved;
    drag = null;
    canvas.classList.remove('dragging');
    if (moved) return;
    const p = local(e);
    const h = hit(p.x, p.y);
    if (h && h.kind === 7) { toggleGroup(groups[h.g]); return; }
    pinned = h && h.kind <= 5 ? h : null;
    showDetails();
    if (h && h.li >= 0) {
      const si = h.kind === 5 ? stepOf(h.li, 0, 0) : stepOf(h.li, h.kind, h.m);
      if (si >= 0 && si !== api.step) go(si);
    }
  });
  canvas.addEventListener('pointerleave', () => {
    if (hover) { hover = null; if (!pinned) showDetails(); requestRender(); }
  });
  canvas.addEventListener('wheel', (e) => {
    e.preventDefault();
    const p = local(e);
    const k = e.deltaMode === 1 ? 16 : e.deltaMode === 2 ? H : 1;
    const dx = e.deltaX * k, dy = e.deltaY * k;
    if (e.ctrlKey) { // a pinch on a touchpad: zoom at the pointer
      zoomAt(Math.exp(-dy * 0.01), Math.max(p.x, gutter));
      return;
    }
    if (e.shiftKey || p.x < gutter) { // scroll the rows
      view.y += dy || dx;
    } else if (Math.abs(dx) > Math.abs(dy)) { // pan
      view.t0 += dx / view.scale;
      fitted = false;
    } else {
      zoomAt(Math.exp(-dy * 0.0015), p.y < TOP ? gutter + plotW() / 2 : Math.max(p.x, gutter));
      return;
    }
    clampView();
    changed();
  }, { passive: false });

  function sameHit(a, b) {
    if (!a || !b) return a === b;
    return a.li === b.li && a.kind === b.kind && a.m === b.m && a.inst === b.inst && a.g === b.g;
  }

  $('zoom-in').addEventListener('click', () => zoomAround(2));
  $('zoom-out').addEventListener('click', () => zoomAround(0.5));
  $('zoom-fit').addEventListener('click', fit);
  $('zoom-step').addEventListener('click', zoomToStep);
  $('step-first').addEventListener('click', () => go(-1));
  $('step-prev').addEventListener('click', () => go(api.step - 1));
  $('step-next').addEventListener('click', () => go(api.step + 1));
  $('lang').addEventListener('click', () => setLang(nextLang().code));
  $('expand').addEventListener('click', () => expandAll(!groups.some((g) => g.count > 1 && isOpen(g))));
  // The / that moved the focus into the search box is not typed into it
  // (a browser that sends its character after the key down would).
  let slashFocus = false;
  $('search').addEventListener('beforeinput', (e) => {
    if (slashFocus && e.data === '/') e.preventDefault();
    slashFocus = false;
  });
  document.addEventListener('keyup', (e) => { if (e.key === '/') slashFocus = false; });
  $('search').addEventListener('input', (e) => search(e.target.value));
  $('search').addEventListener('keydown', (e) => {
    if (e.key === 'Escape') { search(''); canvas.focus(); e.preventDefault(); }
    if (e.key === 'Enter') { canvas.focus(); e.preventDefault(); }
    e.stopPropagation();
  });
  $('narrative').addEventListener('click', (e) => {
    const b = e.target.closest('button[data-step]');
    if (b) go(parseInt(b.dataset.step, 10));
  });

  document.addEventListener('keydown', (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.target instanceof HTMLInputElement) return;
    switch (e.key) {
      case 'ArrowRight': go(api.step + 1); break;
      case 'ArrowLeft': go(api.step - 1); break;
      case 'Home': go(-1); break;
      case 'End': go(nSteps - 1); break;
      case '+': case '=': zoomAround(2); break;
      case '-': case '_': zoomAround(0.5); break;
      case '0': fit(); break;
      case 'z': case 'Z': zoomToStep(); break;
      case 'e': toggleStepGroup(); break;
      case 'E': expandAll(!groups.some((g) => g.count > 1 && isOpen(g))); break;
      case 'f': follow(); break;
      case '/': slashFocus = true; $('search').focus(); $('search').select(); break;
      case 'Escape':
        if (query) search('');
        else if (pinned) { pinned = null; showDetails(); }
        break;
      case 'ArrowDown': view.y += 3 * ROW_H; clampView(); requestRender(); break;
      case 'ArrowUp': view.y -= 3 * ROW_H; clampView(); requestRender(); break;
      case 'PageDown': view.y += plotH() - ROW_H; clampView(); requestRender(); break;
      case 'PageUp': view.y -= plotH() - ROW_H; clampView(); requestRender(); break;
      default: return;
    }
    e.preventDefault();
  });
  window.addEventListener('pagehide', saveHash);

  // ---- API for tests ------------------------------------------------------

  const rect = () => canvas.getBoundingClientRect();
  api.next = () => go(api.step + 1);
  api.prev = () => go(api.step - 1);
  api.go = go;
  api.setLang = setLang;
  api.msg = (key, args, code) => msgIn(D.langs.find((l) => l.code === code) || L, key, args);
  api.zoom = zoomAround;
  api.zoomToStep = zoomToStep;
  api.fit = fit;
  api.search = search;
  api.expand = (key, open) => { const g = groupByKey.get(key); if (g) { setOpen(g, open !== false); regroup(); } return !!g; };
  api.expandAll = expandAll;
  api.openGroups = () => groups.filter((g) => g.count > 1 && isOpen(g)).map((g) => g.key).sort();
  api.narrative = () => $('narrative').innerText;
  api.details = () => $('details').innerText;
  api.view = () => ({ t0: view.t0, t1: tAt(W), scale: view.scale, scrollY: view.y, fitted });
  api.redraw = () => { render(); return api.frameMs; };
  api.timeAt = (x) => tAt(x - rect().left);
  api.xOf = (t) => rect().left + X(t);
  api.ticks = () => lastTicks;
  api.plot = () => { const b = rect(); return { left: b.left + gutter, top: b.top + TOP, right: b.left + W, bottom: b.top + H }; };
  api.hash = hashString;
  api.stepInfo = (i) => {
    const s = step(i);
    return {
      lane: s.lane.i, label: s.lane.label, instance: instName(s.lane.inst), kind: s.kind, name: markName(s.lane, s.kind, s.mark),
      hasEntry: !!s.lane.entry, group: s.lane.grp >= 0 ? groups[s.lane.grp].key : '',
    };
  };
  api.rowsInfo = () => rowY.map((y, r) => {
    const k = rowKind[r], ref = rowRef[r];
    if (k === R_INST) return { kind: 'instance', name: instName(ref), key: '', lane: -1, open: true, y };
    if (k === R_GROUP) return { kind: 'group', name: groups[ref].name, key: groups[ref].key, lane: -1, open: !!matches || isOpen(groups[ref]), y };
    return { kind: 'lane', name: lanes[ref].label, key: instName(lanes[ref].inst), lane: ref, open: true, y };
  });
  api.groupRow = (key) => {
    const g = groupByKey.get(key);
    if (!g || groupRow[g.i] < 0) return null;
    const r = groupRow[g.i], ph = plotH();
    if (rowY[r] < view.y + HEAD_H || rowY[r] + ROW_H > view.y + ph) { view.y = rowY[r] - ph / 3; clampView(); }
    render();
    const b = rect();
    return { x: b.left + 8 + rowDepth[r] * INDENT + 40, y: b.top + TOP + rowY[r] - view.y + ROW_H / 2 };
  };
  api.flows = () => {
    if (api.step < 0) return { causes: 0, effects: 0 };
    const s = step(api.step);
    const f = stepFlows(s);
    return { causes: f.causes.length, effects: f.effects.length };
  };
  api.stepVisible = () => {
    if (api.step < 0) return { x: false, y: false, row: '' };
    const s = step(api.step), r = laneRow[s.lane.i];
    const [a, b] = markSpan(s);
    const x = X(b) >= gutter && X(a) <= W;
    const y = r >= 0 && TOP + rowY[r] - view.y >= TOP + (sticky ? HEAD_H : 0) - 0.5 && TOP + rowY[r] - view.y + ROW_H <= H + 0.5;
    return { x, y, row: r < 0 ? '' : rowKind[r] === R_LANE ? 'lane' : 'group' };
  };
  api.locate = (i) => {
    const s = step(i);
    reveal(s);
    render();
    const [a, b] = markSpan(s);
    const r = rect();
    const ry = TOP + rowY[laneRow[s.lane.i]] - view.y;
    const x = Math.min(Math.max((X(a) + Math.max(X(b), X(a) + 1)) / 2, gutter), W);
    return { x: r.left + x, y: r.top + markY(s.kind, ry) };
  };

  // ---- Start --------------------------------------------------------------

  $('scenario').textContent = D.scenario || 'kubeloom';
  const start = loadHash();
  for (const g of start.flip) setOpen(g, !defaultOpen);
  setQuery(start.q);
  $('search').value = query;
  buildRows();
  api.step = Math.min(Math.max(start.step, -1), nSteps - 1);
  setLang(start.lang);
  if (typeof ResizeObserver === 'function') new ResizeObserver(() => resize()).observe($('view'));
  else window.addEventListener('resize', resize);
  resize();
  if (start.t) {
    setWindow(start.t[0], start.t[1]);
    if (api.step >= 0) revealRow(step(api.step));
  } else if (api.step >= 0) reveal(step(api.step));
  render();
  api.firstPaintMs = performance.now();
  api.ready = true;
})();

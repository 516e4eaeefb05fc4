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
//   frames        the last 600 frames' times (ms), oldest first
//   updates       how many newer snapshots update() applied
//   following     whether the view follows the newest time and step (live)
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
//   update(data), follow(on)   the timeline's (timeline.js, createTimeline)
// and on a comparison's page (entry-diff.js):
//   laneMark(li)  0, or 1 where the lane's family differs, 2 where it ran on one side only
import { markY } from './arrows.js';
import { D, groupByKey, groups, instName, lanes, markName, markSpan, step, stepFlows } from './data.js';
import { $ } from './dom.js';
import { render } from './draw.js';
import { expandAll, regroup, search } from './folding.js';
import { hashString } from './hash.js';
import { INDENT, sticky } from './labels.js';
import { groupRow, HEAD_H, isOpen, laneRow, matches, R_GROUP, R_INST, R_LANE, ROW_H, rowDepth, rowKind, rowRef, rowY, setOpen, TOP } from './layout.js';
import { lastTicks } from './overview.js';
import { go, reveal, setLang } from './story.js';
import { canvas, clampView, fit, gutter, H, plotH, tAt, view, W, X, zoomAround, zoomToStep } from './view.js';
import { L, msgIn } from './words.js';

// api is window.kubeloom; one object for the page's life, so that a
// script that kept it sees the timeline that replaced the last one.
export const api = {};

// resetApi sets what a timeline counts before its first frame.
export function resetApi() {
  Object.assign(api, {
    ready: false, firstPaintMs: 0, lanes: 0, groups: 0, instances: 0, steps: 0, rows: 0, visibleRows: 0,
    drawnLanes: 0, drawnGroups: 0, drawnMarks: 0, drawnFlows: 0, frameMs: 0, frames: [], updates: 0, step: -1, lang: 'en',
  });
  window.kubeloom = api;
}

// installApi gives api its functions.
export function installApi() {
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
  api.view = () => ({ t0: view.t0, t1: tAt(W), scale: view.scale, scrollY: view.y, fitted: view.fitted });
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
}

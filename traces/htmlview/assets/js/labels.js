// Labels: text fitted to the gutter (what tells a lane from its
// siblings), the gutter drawn once per scroll, and the sticky heading.
import { api } from './api.js';
import { component, D, groups, instName, lanes } from './data.js';
import { groupMark, laneMark, MARK_DIFFERS, MARK_NONE, side } from './diffmarks.js';
import { fmtNum } from './format.js';
import { groupRow, HEAD_H, headRow, isOpen, matches, R_GROUP, R_INST, R_LANE, ROW_H, rowDepth, rowInst, rowKind, rowRef, rowY, TOP } from './layout.js';
import { C, FONT, FONT_B, FONT_S, hatches } from './style.js';
import { ctx, dpr, gutter, H, plotH, view, W } from './view.js';
import { msg } from './words.js';

export const labelCache = new Map();

// cutEnd fits text into max pixels by cutting its end.
export function cutEnd(text, max) {
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

export const INDENT = 12;

// The gutter (the groups' and lanes' labels) changes only when the rows
// scroll or change, or the step moves, not when the time zooms or pans:
// it is drawn once into an image that later frames copy.
let gutterImage = null, gutterKey = '', rowsVersion = 0;

// rowsChanged is called when the rows are laid out again: the labels
// fitted before may no longer be those of the same rows.
export function rowsChanged() {
  rowsVersion++;
  labelCache.clear();
}
export function drawGutter(visible, curRow) {
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
    // A comparison's instance: a stripe of its side's colour.
    if (side(ii) >= 0) { c.fillStyle = side(ii) ? C.sideB : C.sideA; c.fillRect(0, y, 4, HEAD_H); }
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
    diffMark(c, groupMark(g.i), y);
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
  const mark = laneMark(li);
  const bw = diffMark(c, mark, y, side(l.inst));
  const font = isCur ? FONT_B : FONT;
  c.font = font;
  c.fillStyle = l.g === 'main' ? C.muted : C.text;
  c.fillText(laneText(li, depth, gutter - x - 12 - bw, font), x + 4, y + ROW_H / 2);
}

// diffMark draws a comparison's mark on a label (diffmarks.js): a tint
// and an edge where the family differs, a hatch and, on a lane, an
// "A only" badge where it ran on one side only. It returns the badge's
// width.
function diffMark(c, mark, y, laneSide) {
  if (mark === MARK_NONE) return 0;
  c.fillStyle = mark === MARK_DIFFERS ? C.differs : hatches().only;
  c.fillRect(0, y, gutter - 1, ROW_H);
  c.fillStyle = mark === MARK_DIFFERS ? C.differsEdge : C.onlyEdge;
  c.fillRect(0, y, 3, ROW_H);
  if (laneSide === undefined || mark === MARK_DIFFERS) return 0;
  const text = msg(laneSide ? 'diff.badgeB' : 'diff.badgeA');
  c.font = FONT_S;
  const w = c.measureText(text).width + 8;
  c.fillStyle = C.onlyEdge;
  c.fillRect(gutter - w - 4, y + 2, w, ROW_H - 4);
  c.fillStyle = '#ffffff';
  c.textAlign = 'left';
  c.fillText(text, gutter - w, y + ROW_H / 2);
  return w + 4;
}

export function countMatches(g) {
  let n = 0;
  for (let li = g.first; li < g.first + g.count; li++) n += matches[li];
  return n;
}

// sticky is the heading pinned at the top: {ii, y}, or null.
export let sticky = null;

// drawSticky keeps the top row's instance (and the open group it is in)
// named at the top, until the next instance's heading pushes it away.
export function drawSticky(visible) {
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

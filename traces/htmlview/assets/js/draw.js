// Drawing a frame: the overview, the axis, the rows in view (lanes,
// groups), the current step, the arrows, the gutter. A frame is drawn on
// requestAnimationFrame, at most one per frame however many changes
// asked for it.
import { api } from './api.js';
import { drawFlows, frameMark } from './arrows.js';
import { groups, lanes, markSpan, step } from './data.js';
import { drawGroup } from './density.js';
import { sel } from './details.js';
import { drawGutter, drawSticky } from './labels.js';
import { contentH, HEAD_H, isOpen, laneRow, matches, R_GROUP, R_INST, rowAt, rowH, rowKind, rowRef, rowY, TOP } from './layout.js';
import { drawLane, marksDrawn, resetMarks } from './marks.js';
import { drawAxis, drawOverview } from './overview.js';
import { C } from './style.js';
import { ctx, dpr, gutter, H, plotH, view, W, X } from './view.js';

let pending = 0;
export function requestRender() {
  if (pending) return;
  pending = requestAnimationFrame(() => { pending = 0; render(); });
}

export function render() {
  const t0 = performance.now();
  resetMarks();
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
  if (sel.hover && sel.hover.li >= 0 && sel.hover.kind >= 1 && sel.hover.kind <= 3 && laneRow[sel.hover.li] >= 0) {
    const [s, e] = sel.hover.span;
    frameMark(s, e, TOP + rowY[laneRow[sel.hover.li]] - view.y, C.hover, 1);
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
  // The last FRAMES frames' times, for the tests of a live run's pace.
  if (api.frames.length >= FRAMES) api.frames.shift();
  api.frames.push(api.frameMs);
}
const FRAMES = 600;

// cancelRender drops a frame asked for and not yet drawn (a timeline
// that goes away).
export function cancelRender() {
  if (pending) cancelAnimationFrame(pending);
  pending = 0;
}

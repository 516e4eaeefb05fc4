// The axis with its ticks, and the overview strip: the whole recording
// with the visible window on it.
import { CA, D, IT, lanes, markSpan, span, WAIT_US } from './data.js';
import { fmtDur, fmtTick, tickStep } from './format.js';
import { cutEnd } from './labels.js';
import { AXIS_H, OV_H, TOP } from './layout.js';
import { C, FONT, FONT_S } from './style.js';
import { ctx, dpr, gutter, H, tAt, view, W, X } from './view.js';
import { msg } from './words.js';

export function drawAxis() {
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
export let lastTicks = { step: 0, ticks: [] };

// The overview: the whole recording across the plot's width, how much
// work happens when (all lanes), the visible window as a box to drag,
// and the current step as a red tick.
let overviewImage = null;
// dropOverview has the strip drawn again (a new size, language or model).
export const dropOverview = () => { overviewImage = null; };
export const ovX = (t) => gutter + 4 + (t / span) * (W - gutter - 8);
export const ovT = (x) => ((x - gutter - 4) / Math.max(W - gutter - 8, 1)) * span;

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

export function drawOverview(cur) {
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

// The view: the canvas's size, the time window across the plot (t0, the
// time at the plot's left edge, and scale, pixels per µs), how far the
// rows are scrolled (y), and whether it is fitted to the whole recording.
import { api } from './api.js';
import { markSpan, span, step } from './data.js';
import { requestRender } from './draw.js';
import { stopFollowing } from './follow.js';
import { saveHashSoon } from './hash.js';
import { labelCache } from './labels.js';
import { contentH, TOP } from './layout.js';
import { dropOverview } from './overview.js';
import { revealRow } from './story.js';

export let canvas = null, ctx = null;
export let W = 0, H = 0, dpr = 1, gutter = 260;
export const view = { t0: 0, scale: 1, y: 0, fitted: true };

// mountCanvas draws on el from now on, its size yet to be measured.
export function mountCanvas(el) {
  canvas = el;
  ctx = canvas.getContext('2d', { alpha: false });
  W = 0; H = 0;
}

export const plotW = () => Math.max(W - gutter, 10);
export const plotH = () => Math.max(H - TOP, 10);
export const X = (t) => gutter + (t - view.t0) * view.scale;
export const tAt = (x) => view.t0 + (x - gutter) / view.scale;

export function fitScale() { return (plotW() - 24) / span; }

export function clampView() {
  const minScale = fitScale() / 4, maxScale = 20; // 20 px per µs
  view.scale = Math.min(Math.max(view.scale, minScale), Math.max(maxScale, minScale));
  // The recording fills the view, with a margin; zoomed out further, it
  // stays in the middle.
  const vis = plotW() / view.scale, pad = 12 / view.scale;
  if (vis >= span + 2 * pad) view.t0 = (span - vis) / 2;
  else view.t0 = Math.min(Math.max(view.t0, -pad), span + pad - vis);
  view.y = Math.min(Math.max(view.y, 0), Math.max(0, contentH - plotH()));
}

export function fit() {
  view.scale = fitScale();
  view.t0 = -12 / view.scale;
  view.fitted = true;
  clampView();
  changed();
}

// setWindow shows the times [a, b] across the plot.
export function setWindow(a, b) {
  view.scale = plotW() / Math.max(b - a, 1e-3);
  view.t0 = a;
  view.fitted = false;
  clampView();
}

// zoomTo sets the scale (clamped), keeping time t at x.
export function zoomTo(scale, t, x) {
  stopFollowing();
  view.scale = scale;
  clampView();
  view.t0 = t - (x - gutter) / view.scale;
  view.fitted = false;
  clampView();
  changed();
}

// zoomAt zooms by f keeping the time under x where it is.
export const zoomAt = (f, x) => zoomTo(view.scale * f, tAt(x), x);

// zoomAround is what + and − do: zoom at the current step's time when
// there is one (and bring it into view first if it is not), else at the
// middle of the plot; the step never leaves the view.
export function zoomAround(f) {
  if (api.step < 0) { zoomAt(f, gutter + plotW() / 2); return; }
  const [a] = markSpan(step(api.step));
  const x = X(a);
  // Off the plot, the step comes to its middle.
  zoomTo(view.scale * f, a, x >= gutter && x <= W ? x : gutter + plotW() / 2);
}

// zoomToStep is z: the current step's span across most of the plot; a
// span too short to see (an event, a call that took no simulated time)
// gets a window of a fiftieth of the recording, between 2 ms and 2 s.
export function zoomToStep() {
  if (api.step < 0) return;
  stopFollowing();
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
export function resize() {
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
  dropOverview();
  if (view.fitted) { view.scale = fitScale(); view.t0 = -12 / view.scale; clampView(); } else setWindow(a, b);
  requestRender();
}

// changed asks for a frame and, a little later, for the URL fragment to
// follow the view.
export function changed() {
  requestRender();
  saveHashSoon();
}

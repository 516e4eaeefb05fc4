// The page's colours and fonts on the canvas, and the hatch that fills
// waiting.
import { ctx } from './view.js';

export const C = {
  bg: '#ffffff', stripe: 'rgba(31, 35, 40, 0.028)', head: '#eef1f4', headText: '#1f2328', text: '#3d444d', muted: '#6e7781',
  grid: '#eceff2', axis: '#59636e', life: '#c3c9d1', lifeOpen: '#dde1e6', startTick: '#1a7f37', endTick: '#59636e',
  it: '#2f6fde', call: '#e39a0b', ev: '#b3261e', cur: 'rgba(255, 200, 0, 0.22)', curLine: '#d1242f',
  itWait: 'rgba(47, 111, 222, 0.10)', itHatch: 'rgba(47, 111, 222, 0.45)', itLine: 'rgba(47, 111, 222, 0.85)', itThin: 'rgba(47, 111, 222, 0.3)',
  callWait: 'rgba(227, 154, 11, 0.12)', callHatch: 'rgba(200, 125, 0, 0.5)', callLine: 'rgba(200, 125, 0, 0.9)', callThin: 'rgba(227, 154, 11, 0.35)',
  groupWait: 'rgba(89, 99, 110, 0.13)', groupRow: '#f6f8fa', groupOpen: '#f0f3f6',
  cause: '#8250df', effect: '#0f7b6c',
  differs: 'rgba(255, 140, 0, 0.16)', differsEdge: '#d4700a', onlyEdge: '#8250df', onlyHatch: 'rgba(130, 80, 223, 0.35)',
  sideA: '#2f6fde', sideB: '#0f7b6c',
  hover: '#1f2328', gutter: '#fafbfc', gutterLine: '#d0d7de', ovBar: '#8ea9d6', ovWin: 'rgba(47, 111, 222, 0.14)',
};
const FONT_FAMILY = 'system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Noto Sans CJK SC", "Source Han Sans SC", "WenQuanYi Micro Hei", "PingFang SC", "Microsoft YaHei", sans-serif';
export const FONT = '12px ' + FONT_FAMILY;
export const FONT_B = 'bold ' + FONT;
export const FONT_S = '11px ' + FONT_FAMILY;

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
// hatches are the patterns of waiting iterations and calls, made for the
// canvas on first use.
let HATCH = null, hatchCtx = null;
export function hatches() {
  if (!HATCH || hatchCtx !== ctx) { HATCH = { it: hatch(C.itHatch), call: hatch(C.callHatch), only: hatch(C.onlyHatch) }; hatchCtx = ctx; }
  return HATCH;
}

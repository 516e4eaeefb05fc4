// Controls: the pointer (drag to pan, click, hover, pinch), the wheel,
// the buttons, the keys and the search box. bindControls adds every
// listener with signal, so that aborting it removes them all.
import { api } from './api.js';
import { groups, nSteps, stepOf } from './data.js';
import { sel, showDetails } from './details.js';
import { $ } from './dom.js';
import { requestRender } from './draw.js';
import { expandAll, search, toggleGroup, toggleStepGroup } from './folding.js';
import { follow, following, stopFollowing } from './follow.js';
import { saveHash } from './hash.js';
import { hit, sameHit } from './hit.js';
import { isOpen, OV_H, query, ROW_H, TOP } from './layout.js';
import { ovT } from './overview.js';
import { followEffect, go, setLang } from './story.js';
import { canvas, changed, clampView, fit, gutter, H, plotH, plotW, tAt, view, W, zoomAround, zoomAt, zoomTo, zoomToStep } from './view.js';
import { nextLang } from './words.js';

export function bindControls(signal) {
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
      view.fitted = false;
      stopFollowing();
      clampView();
      changed();
      return;
    }
    drag = { x: e.clientX, y: e.clientY, t0: view.t0, vy: view.y, moved: false };
  }, { signal });
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
      view.fitted = false;
      stopFollowing();
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
      view.fitted = false;
      stopFollowing();
      clampView();
      changed();
      return;
    }
    const h = hit(p.x, p.y);
    canvas.classList.toggle('clickable', !!h && h.kind === 7);
    if (!sameHit(h, sel.hover)) {
      sel.hover = h;
      if (!sel.pinned) showDetails();
      requestRender();
    }
  }, { signal });
  const endPointer = (e) => {
    touches.delete(e.pointerId);
    if (touches.size < 2) pinch = null;
  };
  canvas.addEventListener('pointercancel', (e) => { endPointer(e); drag = null; ovDrag = null; }, { signal });
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
    sel.pinned = h && h.kind <= 5 ? h : null;
    showDetails();
    if (h && h.li >= 0) {
      const si = h.kind === 5 ? stepOf(h.li, 0, 0) : stepOf(h.li, h.kind, h.m);
      if (si >= 0 && si !== api.step) go(si);
    }
  }, { signal });
  canvas.addEventListener('pointerleave', () => {
    if (sel.hover) { sel.hover = null; if (!sel.pinned) showDetails(); requestRender(); }
  }, { signal });
  canvas.addEventListener('wheel', (e) => {
    e.preventDefault();
    const p = local(e);
    const k = e.deltaMode === 1 ? 16 : e.deltaMode === 2 ? H : 1;
    const dx = e.deltaX * k, dy = e.deltaY * k;
    if (e.ctrlKey) { // a pinch on a touchpad: zoom at the pointer
      zoomAt(Math.exp(-dy * 0.01), Math.max(p.x, gutter));
      return;
    }
    stopFollowing();
    if (e.shiftKey || p.x < gutter) { // scroll the rows
      view.y += dy || dx;
    } else if (Math.abs(dx) > Math.abs(dy)) { // pan
      view.t0 += dx / view.scale;
      view.fitted = false;
    } else {
      zoomAt(Math.exp(-dy * 0.0015), p.y < TOP ? gutter + plotW() / 2 : Math.max(p.x, gutter));
      return;
    }
    clampView();
    changed();
  }, { passive: false, signal });

  $('zoom-in').addEventListener('click', () => zoomAround(2), { signal });
  $('zoom-out').addEventListener('click', () => zoomAround(0.5), { signal });
  $('zoom-fit').addEventListener('click', fit, { signal });
  $('zoom-step').addEventListener('click', zoomToStep, { signal });
  $('step-first').addEventListener('click', () => go(-1), { signal });
  $('step-prev').addEventListener('click', () => go(api.step - 1), { signal });
  $('step-next').addEventListener('click', () => go(api.step + 1), { signal });
  $('lang').addEventListener('click', () => setLang(nextLang().code), { signal });
  $('expand').addEventListener('click', () => expandAll(!groups.some((g) => g.count > 1 && isOpen(g))), { signal });
  // The / that moved the focus into the search box is not typed into it
  // (a browser that sends its character after the key down would).
  let slashFocus = false;
  $('search').addEventListener('beforeinput', (e) => {
    if (slashFocus && e.data === '/') e.preventDefault();
    slashFocus = false;
  }, { signal });
  document.addEventListener('keyup', (e) => { if (e.key === '/') slashFocus = false; }, { signal });
  $('search').addEventListener('input', (e) => search(e.target.value), { signal });
  $('search').addEventListener('keydown', (e) => {
    if (e.key === 'Escape') { search(''); canvas.focus(); e.preventDefault(); }
    if (e.key === 'Enter') { canvas.focus(); e.preventDefault(); }
    e.stopPropagation();
  }, { signal });
  $('narrative').addEventListener('click', (e) => {
    const b = e.target.closest('button[data-step]');
    if (b) go(parseInt(b.dataset.step, 10));
  }, { signal });

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
      case 'f': followEffect(); break;
      case 'l': follow(true); break;
      case '/': slashFocus = true; $('search').focus(); $('search').select(); break;
      case 'Escape':
        if (query) search('');
        else if (sel.pinned) { sel.pinned = null; showDetails(); }
        break;
      case 'ArrowDown': stopFollowing(); view.y += 3 * ROW_H; clampView(); requestRender(); break;
      case 'ArrowUp': stopFollowing(); view.y -= 3 * ROW_H; clampView(); requestRender(); break;
      case 'PageDown': stopFollowing(); view.y += plotH() - ROW_H; clampView(); requestRender(); break;
      case 'PageUp': stopFollowing(); view.y -= plotH() - ROW_H; clampView(); requestRender(); break;
      default: return;
    }
    e.preventDefault();
  }, { signal });
  window.addEventListener('pagehide', saveHash, { signal });
  const f = $('follow');
  if (f) f.addEventListener('click', () => follow(!following), { signal });
}

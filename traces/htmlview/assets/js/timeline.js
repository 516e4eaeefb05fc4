// createTimeline mounts the timeline into the page's elements (those of
// page.html: #bar, #canvas, #panel, #narrative, #details, #search and the
// buttons) and sets window.kubeloom (api.js). One timeline is shown at a
// time: creating one destroys the last.
//
//   tl = createTimeline(data, {live, keepHash})
//     data      the page's data (data.go), parsed or as JSON text
//     live      a live run: the follow button shows, and the view follows
//     keepHash  the view is read from and kept in the URL fragment
//   tl.update(data)  a newer snapshot of the same run keeps the window, the
//                    open groups, the search, the language and the picked
//                    step; another run (scenario or start differs) resets
//                    the view. Drawn on the next animation frame.
//   tl.follow(on), tl.following   see follow.js
//   tl.destroy()     removes the timeline's listeners
import { api, installApi, resetApi } from './api.js';
import { bindControls } from './controls.js';
import { D, groups, lanes, load, nSteps, step } from './data.js';
import { sel } from './details.js';
import { $ } from './dom.js';
import { cancelRender, render } from './draw.js';
import { catchUp, follow, following, setLive } from './follow.js';
import { loadHash, saveHash, useHash } from './hash.js';
import { findHit, findStep, hitId, laneIndex, stepId } from './identity.js';
import { buildRows, defaultOpen, openStates, query, resetLayout, restoreOpen, setOpen, setQuery } from './layout.js';
import { dropOverview } from './overview.js';
import { reveal, revealRow, setLang } from './story.js';
import { clampView, fitScale, mountCanvas, resize, setWindow, view } from './view.js';

let current = null;

export function createTimeline(data, options = {}) {
  if (current) current.destroy();
  const ac = new AbortController();
  resetApi();
  useHash(options.keepHash);
  mountCanvas($('canvas'));
  bindControls(ac.signal);
  window.addEventListener('pagehide', saveHash, { signal: ac.signal });
  installApi();
  setLive(!!options.live);
  show(parse(data), null);
  let observer = null;
  if (typeof ResizeObserver === 'function') {
    observer = new ResizeObserver(() => resize());
    observer.observe($('view'));
  } else window.addEventListener('resize', resize, { signal: ac.signal });
  render();
  api.firstPaintMs = performance.now();
  api.ready = true;

  const tl = {
    update(d) {
      if (tl !== current) return;
      d = parse(d);
      if (d.scenario === D.scenario && d.start === D.start) refresh(d);
      else show(d, api.lang);
      api.updates++;
    },
    follow,
    get following() { return following; },
    destroy() {
      if (tl !== current) return;
      ac.abort();
      if (observer) observer.disconnect();
      cancelRender();
      saveHash();
      api.ready = false;
      current = null;
    },
  };
  api.update = tl.update;
  api.follow = tl.follow;
  current = tl;
  return tl;
}

const parse = (d) => (typeof d === 'string' ? JSON.parse(d) : d);

// show makes d the timeline's data with a fresh view: the URL fragment's,
// when kept (and lang is null: the page's first data), else the whole run
// in the language lang.
function show(d, lang) {
  load(d);
  count();
  resetLayout();
  sel.hover = null;
  sel.pinned = null;
  view.t0 = 0; view.scale = 1; view.y = 0; view.fitted = true;
  dropOverview();
  $('scenario').textContent = D.scenario || 'kubeloom';
  const start = lang === null ? loadHash() : { step: -1, lang, t: null, flip: [], q: '' };
  for (const g of start.flip) setOpen(g, !defaultOpen);
  setQuery(start.q);
  $('search').value = query;
  buildRows();
  api.step = Math.min(Math.max(start.step, -1), nSteps - 1);
  setLang(start.lang);
  resize();
  if (view.fitted) {
    view.scale = fitScale();
    view.t0 = -12 / view.scale;
    clampView();
  }
  if (start.t) {
    setWindow(start.t[0], start.t[1]);
    if (api.step >= 0) revealRow(step(api.step));
  } else if (api.step >= 0) reveal(step(api.step));
  catchUp();
}

// refresh makes d, a newer snapshot of the same run, the timeline's data,
// keeping the view: what it holds by index (groups, the step, the clicked
// mark) is found again by what it is.
function refresh(d) {
  const open = openStates(), q = query;
  const picked = api.step >= 0 ? stepId(api.step) : null;
  const pinned = sel.pinned ? hitId(sel.pinned) : null;
  load(d);
  count();
  resetLayout();
  restoreOpen(open);
  setQuery(q);
  const byLane = laneIndex();
  api.step = picked ? findStep(picked, byLane) : -1;
  sel.hover = null;
  sel.pinned = pinned ? findHit(pinned, byLane) : null;
  buildRows();
  if (view.fitted) {
    view.scale = fitScale();
    view.t0 = -12 / view.scale;
  }
  clampView();
  catchUp();
  // setLang shows everything that depends on the data in the page's
  // language (the stats, the controls, both panels) and asks for a frame.
  setLang(api.lang);
}

function count() {
  api.lanes = lanes.length;
  api.groups = groups.length;
  api.instances = D.instances.length;
  api.steps = nSteps;
}

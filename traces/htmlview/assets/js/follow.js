// Following a live run: while following, the window's right edge stays at
// the newest time (the data's duration) and the current step is the
// newest step. What the user does to look elsewhere (zoom, pan, scroll,
// pick a step) stops it; the follow button (#follow, shown on a live
// page) and the key l resume it.
import { api } from './api.js';
import { nSteps, span, step } from './data.js';
import { $ } from './dom.js';
import { revealRow, showNarrative } from './story.js';
import { changed, clampView, fitScale, plotW, view } from './view.js';

export let following = false;

// setLive shows the follow button when live, and follows from the start.
export function setLive(live) {
  const b = $('follow');
  if (b) b.hidden = !live;
  following = live;
  showFollow();
}

// stopFollowing is what the user's moves call.
export function stopFollowing() {
  if (!following) return;
  following = false;
  showFollow();
}

// follow turns following on (and catches up at once) or off.
export function follow(on) {
  following = !!on;
  showFollow();
  if (following) {
    catchUp();
    showNarrative();
    changed();
  }
}

// catchUp moves the view to the newest time and step when following. A
// view fitted to the whole run stays fitted: its right edge is the newest
// time already.
export function catchUp() {
  if (!following) return;
  if (nSteps) {
    api.step = nSteps - 1;
    revealRow(step(api.step));
  }
  if (view.fitted) {
    view.scale = fitScale();
    view.t0 = -12 / view.scale;
  } else {
    view.t0 = span + 12 / view.scale - plotW() / view.scale;
  }
  clampView();
}

function showFollow() {
  api.following = following;
  const b = $('follow');
  if (b) b.setAttribute('aria-pressed', String(following));
}

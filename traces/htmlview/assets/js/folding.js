// Folding and search: the actions that lay the rows out again.
import { api } from './api.js';
import { component, family, groups, lanes, step } from './data.js';
import { $ } from './dom.js';
import { fmtNum } from './format.js';
import { buildRows, isOpen, laneRow, matches, query, R_LANE, rowKind, setOpen, setQuery, shownLanes } from './layout.js';
import { revealRow } from './story.js';
import { changed, clampView } from './view.js';
import { msg } from './words.js';

// showControls updates what depends on the groups and the search.
export function showControls() {
  const e = $('expand');
  e.hidden = !groups.some((g) => g.count > 1);
  e.textContent = msg(groups.some((g) => g.count > 1 && isOpen(g)) ? 'collapseAll' : 'expandAll');
  e.disabled = !!matches;
  const c = $('search-count');
  c.textContent = matches ? (shownLanes ? msg('searchCount', { n: fmtNum(shownLanes), total: fmtNum(lanes.length) }) : msg('noMatch')) : '';
}

// regroup lays the rows out again after groups opened or closed or the
// search changed, keeping the current step's row in view.
export function regroup() {
  buildRows();
  clampView();
  if (api.step >= 0) revealRow(step(api.step));
  showControls();
  changed();
}

export function toggleGroup(g) {
  if (matches || g.count < 2) return;
  setOpen(g, !isOpen(g));
  regroup();
}

export function expandAll(open) {
  for (const g of groups) if (g.count > 1) setOpen(g, open);
  regroup();
}

// toggleStepGroup is e: open the groups that hide the current step's
// lane, or, when it shows, fold its innermost group again.
export function toggleStepGroup() {
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

export function search(q) {
  setQuery(q);
  if ($('search').value !== query) $('search').value = query;
  regroup();
}

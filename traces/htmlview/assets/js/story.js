// The step story: the narrative of the current step (what the catalog
// says of its goroutine, its causes and effects), moving between steps,
// and the page's language.
import { api } from './api.js';
import { attr, CA, D, EV, groupPath, instName, IT, KINDS, lanes, markName, markSpan, nSteps, spanOf, step, stepFlows, stepOf } from './data.js';
import { showDetails } from './details.js';
import { $ } from './dom.js';
import { showControls } from './folding.js';
import { stopFollowing } from './follow.js';
import { esc, fmtDur, fmtNum, fmtOff } from './format.js';
import { HEAD_H, laneRow, ROW_H, rowY } from './layout.js';
import { dropOverview } from './overview.js';
import { changed, clampView, gutter, plotH, plotW, tAt, view, W } from './view.js';
import { L, msg, msgIn, nextLang, storyOf, useLang } from './words.js';

// quoteHTML is the article's sentence as it is, and under it, in a
// language other than the article's, kubeloom's rendering of it,
// labelled as such.
function quoteHTML(quote, rendering, article) {
  let out = `<h3>${esc(msg('article'))}</h3><blockquote lang="${esc(D.articles)}">${esc(quote)}</blockquote>`;
  if (rendering) out += `<p class="rendered" lang="${esc(L.code)}"><span>${esc(msg('rendered'))}</span> ${esc(rendering)}</p>`;
  if (article) out += `<p class="src">${esc(article)}</p>`;
  return out;
}

// flowsHTML lists what caused the step and what it caused, each a
// button to that step.
function flowsHTML(s) {
  const f = stepFlows(s);
  const F = D.flows;
  const list = (title, offs, at) => {
    if (!offs.length) return '';
    let out = `<h3>${esc(title)}</h3><ul class="flows">`;
    for (const o of offs.slice(0, 6)) {
      const li = F[o + at], kind = F[o + at + 1], m = F[o + at + 2], l = lanes[li];
      const si = stepOf(li, kind, m);
      const text = `${l.label} · ${markName(l, kind, m)} · ${fmtOff(spanOf(l, kind, m)[0])}`;
      out += si >= 0 ? `<li><button type="button" class="flow" data-step="${si}">${esc(text)}</button></li>` : `<li>${esc(text)}</li>`;
    }
    if (offs.length > 6) out += `<li class="hint">${esc(msg('moreFlows', { n: offs.length - 6 }))}</li>`;
    return out + '</ul>';
  };
  return list(msg('causedBy'), f.causes, 0) + list(msg('ledTo'), f.effects, 3);
}

function narrativeHTML() {
  if (!nSteps) return `<h2>${esc(msg('introTitle'))}</h2><p>${esc(msg('noSteps'))}</p>`;
  if (api.step < 0) return `<h2>${esc(msg('introTitle'))}</h2><p>${esc(msg('intro', { n: nSteps }))}</p>`;
  const s = step(api.step), l = s.lane;
  const [at] = markSpan(s);
  const inst = instName(l.inst);
  let n = 0;
  if (s.kind === 1) n = l.it[s.mark * IT + 3];
  const head = msg('head.' + KINDS[s.kind], { lane: l.label, name: markName(l, s.kind, s.mark), n, duration: fmtDur(l.end - l.start) });
  const where = groupPath(l);
  let out = `<div class="where">${esc(msg('stepOf', { i: s.i + 1, n: nSteps }))} · ${esc(fmtOff(at))} · ${esc(inst)}${where ? ' · ' + esc(where) : ''}</div>`;
  out += `<h2><span class="kind k${s.kind}">${esc(msg('kinds.' + KINDS[s.kind]))}</span>${esc(head)}</h2>`;
  const set = s.kind === 1 ? l.it[s.mark * IT + 5] : s.kind === 2 ? l.calls[s.mark * CA + 3] : s.kind === 3 ? l.events[s.mark * EV + 2] : 0;
  const key = attr(set, 'k8s.object.key');
  if (key !== undefined) out += `<p>${esc(msg('object'))} <code>${esc(key)}</code>${(v => v ? ' · ' + esc(v) : '')(attr(set, 'k8s.event.type'))}</p>`;
  if (s.kind === 1 && l.it[s.mark * IT + 4] > 0) out += `<p>${esc(msg('skipped', { k: l.it[s.mark * IT + 4] }))}</p>`;
  out += flowsHTML(s);
  const si = D.stepStartup ? D.stepStartup[s.i] : undefined;
  if (si !== undefined) { // a startup step the catalog tells
    const st = D.startup[si];
    const story = storyOf(st);
    out += `<h3>${esc(msg('what'))}</h3><p>${esc(story.summary)}</p>`;
    if (st.quote) out += quoteHTML(st.quote, story.rendering, st.article);
    if (st.function) out += `<h3>${esc(msg('source'))}</h3><p><code>${esc(st.function)}</code></p><p class="src"><code>${esc(st.file)}</code></p>`;
    return out;
  }
  const e = l.entry;
  if (!e) {
    out += `<p>${esc(l.g === 'main' ? msg('mainLane') : msg('unknown', { goroutine: l.g }))}</p>`;
    return out;
  }
  const story = storyOf(e);
  out += `<h3>${esc(msg('what'))}</h3><p>${esc(story.summary)}</p>`;
  const how = [e.kind, e.period ? msg('every', { period: fmtDur(Math.round(e.period * 1e6)) }) : msg('eventDriven')].filter(Boolean).join(', ');
  if (e.quote) out += quoteHTML(e.quote, story.rendering, e.article);
  out += `<h3>${esc(msg('source'))}</h3><p><code>${esc(e.function)}</code></p><p class="src"><code>${esc(e.file)}</code> · ${esc(how)}</p>`;
  if (story.now) out += `<h3>${esc(msg('now'))}</h3><p>${esc(story.now)}</p>`;
  return out;
}

export function showNarrative() {
  $('narrative').innerHTML = narrativeHTML();
  $('step-pos').textContent = nSteps ? (api.step < 0 ? '– / ' : fmtNum(api.step + 1) + ' / ') + fmtNum(nSteps) : '0 / 0';
  $('step-prev').disabled = api.step < 0;
  $('step-first').disabled = api.step < 0;
  $('step-next').disabled = api.step >= nSteps - 1;
  $('zoom-step').disabled = api.step < 0;
}

// revealRow scrolls the rows so that step s's row is in view.
export function revealRow(s) {
  const r = laneRow[s.lane.i];
  if (r < 0) return;
  const ph = plotH(), ry = rowY[r];
  if (ry < view.y + HEAD_H + ROW_H || ry + ROW_H > view.y + ph - ROW_H) view.y = ry - ph / 3;
  clampView();
}

// reveal scrolls and pans so that step s is in view.
export function reveal(s) {
  revealRow(s);
  const [a, b] = markSpan(s);
  const margin = 40 / view.scale;
  if (a < tAt(gutter) + margin || a > tAt(W) - margin) {
    view.t0 = (a + b) / 2 - plotW() / 2 / view.scale;
    view.fitted = false;
  }
  clampView();
}

// go makes step i the current one (-1: none), as the user asks: a live
// view stops following the newest step.
export function go(i) {
  if (!nSteps) return;
  stopFollowing();
  i = Math.min(Math.max(i, -1), nSteps - 1);
  api.step = i;
  if (i >= 0) reveal(step(i));
  showNarrative();
  changed();
}

// followEffect goes to the first thing the current step caused (f).
export function followEffect() {
  if (api.step < 0) return;
  const s = step(api.step);
  const f = stepFlows(s);
  let best = -1;
  for (const o of f.effects) {
    const si = stepOf(D.flows[o + 3], D.flows[o + 4], D.flows[o + 5]);
    if (si > api.step && (best < 0 || si < best)) best = si;
  }
  if (best >= 0) go(best);
}

export function setLang(lang) {
  api.lang = useLang(lang).code;
  document.documentElement.lang = L.tag;
  // The button offers the next language by its name, and says so in it.
  const b = $('lang'), next = nextLang();
  b.hidden = D.langs.length < 2;
  b.textContent = next.name;
  b.title = msgIn(next, 'switchTo');
  for (const el of document.querySelectorAll('[data-t]')) el.textContent = msg(el.dataset.t);
  for (const el of document.querySelectorAll('[data-title]')) el.title = msg(el.dataset.title);
  $('search').placeholder = msg('search');
  $('stats').textContent = msg('stats', { spans: fmtNum(D.spans), lanes: fmtNum(lanes.length), duration: fmtDur(D.duration) });
  dropOverview();
  showControls();
  showNarrative();
  showDetails();
  changed();
}


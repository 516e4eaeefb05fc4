// The step story: the narrative of the current step (what the catalog
// says of its goroutine, its causes and effects), moving between steps,
// and the page's language.
import { api } from './api.js';
import { attr, CA, D, EV, groupPath, instName, IT, KINDS, lanes, markName, markSpan, nSteps, spanOf, step, stepFlows, stepOf } from './data.js';
import { heading, showDetails } from './details.js';
import { $, el } from './dom.js';
import { showControls } from './folding.js';
import { stopFollowing } from './follow.js';
import { fmtDur, fmtNum, fmtOff } from './format.js';
import { HEAD_H, laneRow, ROW_H, rowY } from './layout.js';
import { dropOverview } from './overview.js';
import { changed, clampView, gutter, plotH, plotW, tAt, view, W } from './view.js';
import { L, msg, msgIn, nextLang, storyOf, useLang } from './words.js';

// quote is the article's sentence as it is, and under it, in a language
// other than the article's, kubeloom's rendering of it, labelled as such.
function quote(text, rendering, article) {
  return [el('h3', null, msg('article')), el('blockquote', { lang: D.articles }, text),
    rendering && el('p', { class: 'rendered', lang: L.code }, el('span', null, msg('rendered')), ' ' + rendering),
    article && el('p', { class: 'src' }, article)];
}

// flows lists what caused the step and what it caused, each a button to
// that step.
function flows(s) {
  const f = stepFlows(s);
  const F = D.flows;
  const list = (title, offs, at) => {
    if (!offs.length) return [];
    const items = offs.slice(0, 6).map((o) => {
      const li = F[o + at], kind = F[o + at + 1], m = F[o + at + 2], l = lanes[li];
      const si = stepOf(li, kind, m);
      const text = `${l.label} · ${markName(l, kind, m)} · ${fmtOff(spanOf(l, kind, m)[0])}`;
      return el('li', null, si >= 0 ? el('button', { type: 'button', class: 'flow', 'data-step': si }, text) : text);
    });
    if (offs.length > 6) items.push(el('li', { class: 'hint' }, msg('moreFlows', { n: offs.length - 6 })));
    return [el('h3', null, title), el('ul', { class: 'flows' }, items)];
  };
  return [list(msg('causedBy'), f.causes, 0), list(msg('ledTo'), f.effects, 3)];
}

// source is where a goroutine or a startup step is in Kubernetes: its
// function, then its file (and how it runs).
const source = (fn, file, how) => [el('h3', null, msg('source')), el('p', null, el('code', null, fn)),
  el('p', { class: 'src' }, el('code', null, file), how && ' · ' + how)];

// narrative is the story of the current step (or the introduction), as nodes.
function narrative() {
  if (!nSteps) return [el('h2', null, msg('introTitle')), el('p', null, msg('noSteps'))];
  if (api.step < 0) return [el('h2', null, msg('introTitle')), el('p', null, msg('intro', { n: nSteps }))];
  const s = step(api.step), l = s.lane;
  const [at] = markSpan(s);
  const inst = instName(l.inst);
  let n = 0;
  if (s.kind === 1) n = l.it[s.mark * IT + 3];
  const head = msg('head.' + KINDS[s.kind], { lane: l.label, name: markName(l, s.kind, s.mark), n, duration: fmtDur(l.end - l.start) });
  const where = groupPath(l);
  const out = [el('div', { class: 'where' }, [msg('stepOf', { i: s.i + 1, n: nSteps }), fmtOff(at), inst, where].filter(Boolean).join(' · ')),
    heading('kind k' + s.kind, msg('kinds.' + KINDS[s.kind]), head)];
  const set = s.kind === 1 ? l.it[s.mark * IT + 5] : s.kind === 2 ? l.calls[s.mark * CA + 3] : s.kind === 3 ? l.events[s.mark * EV + 2] : 0;
  const key = attr(set, 'k8s.object.key');
  if (key !== undefined) {
    const type = attr(set, 'k8s.event.type');
    out.push(el('p', null, msg('object') + ' ', el('code', null, key), type && ' · ' + type));
  }
  if (s.kind === 1 && l.it[s.mark * IT + 4] > 0) out.push(el('p', null, msg('skipped', { k: l.it[s.mark * IT + 4] })));
  out.push(flows(s));
  const si = D.stepStartup ? D.stepStartup[s.i] : undefined;
  if (si !== undefined) { // a startup step the catalog tells
    const st = D.startup[si];
    const story = storyOf(st);
    out.push(el('h3', null, msg('what')), el('p', null, story.summary));
    if (st.quote) out.push(quote(st.quote, story.rendering, st.article));
    if (st.function) out.push(source(st.function, st.file, ''));
    return out;
  }
  const e = l.entry;
  if (!e) {
    out.push(el('p', null, l.g === 'main' ? msg('mainLane') : msg('unknown', { goroutine: l.g })));
    return out;
  }
  const story = storyOf(e);
  out.push(el('h3', null, msg('what')), el('p', null, story.summary));
  const how = [e.kind, e.period ? msg('every', { period: fmtDur(Math.round(e.period * 1e6)) }) : msg('eventDriven')].filter(Boolean).join(', ');
  if (e.quote) out.push(quote(e.quote, story.rendering, e.article));
  out.push(source(e.function, e.file, how));
  if (story.now) out.push(el('h3', null, msg('now')), el('p', null, story.now));
  return out;
}

export function showNarrative() {
  $('narrative').replaceChildren(...narrative().flat(Infinity).filter(Boolean));
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
  for (const e of document.querySelectorAll('[data-t]')) e.textContent = msg(e.dataset.t);
  for (const e of document.querySelectorAll('[data-title]')) e.title = msg(e.dataset.title);
  $('search').placeholder = msg('search');
  $('stats').textContent = msg('stats', { spans: fmtNum(D.spans), lanes: fmtNum(lanes.length), duration: fmtDur(D.duration) });
  dropOverview();
  showControls();
  showNarrative();
  showDetails();
  for (const f of langHooks) f();
  changed();
}

// langHooks are what else setLang shows again in the new language: a
// comparison's panel (diffpanel.js).
export const langHooks = [];


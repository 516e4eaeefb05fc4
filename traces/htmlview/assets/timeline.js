// kubeloom timeline page: draws a recording's lanes on a canvas and walks
// through its steps with the goroutine catalog's narrative.
//
// The data (the element #kubeloom-data) is written by traces/htmlview
// (data.go): times are microseconds from the start of the recording, names
// and attribute keys are indexes into D.strings, attribute values indexes
// into D.values, and marks are flat arrays of integers per lane (strides in
// D.strides).
//
// window.kubeloom, for tests and scripts:
//   ready         true once the first frame is drawn
//   firstPaintMs  ms from navigation start to the end of the first frame
//   lanes         lanes laid out (the timeline's LaneCount)
//   drawnLanes    lanes drawn in the last frame (the visible ones)
//   drawnMarks    rectangles and event marks drawn in the last frame
//   frameMs       how long the last frame took to draw
//   steps, step   the number of steps and the current one (-1: none yet)
//   lang          'en' or 'zh'
//   next(), prev(), go(i), setLang(l), zoom(f), fit()
//   narrative(), details()  the text of the two panels
//   stepInfo(i)   {lane, label, kind, name, hasEntry} of a step
//   locate(i)     {x, y}: where step i's mark is in the viewport (scrolls to it)
//   view()        {t0, scale, scrollY}: the visible window
(function () {
  'use strict';

  const api = (window.kubeloom = {
    ready: false, firstPaintMs: 0, lanes: 0, drawnLanes: 0, drawnMarks: 0, frameMs: 0,
    instances: 0, steps: 0, step: -1, lang: 'en',
  });

  const $ = (id) => document.getElementById(id);
  const D = JSON.parse($('kubeloom-data').textContent);
  if (D.v !== 1) {
    throw new Error('kubeloom: this page holds data of format ' + D.v + ', its script reads format 1');
  }
  const S = D.strings;
  const IT = D.strides.it, CA = D.strides.calls, EV = D.strides.events, ST = D.strides.steps;

  // ---- Text, in both languages ------------------------------------------

  const TEXT = {
    en: {
      fit: 'Fit', zoomIn: 'Zoom in (+ or the wheel)', zoomOut: 'Zoom out (− or the wheel)',
      fitTitle: 'Show the whole recording (0)', first: 'Back to the beginning (Home)',
      prev: 'Previous step (←)', next: 'Next step (→)', lang: '中文', langTitle: '切换到中文',
      legendIteration: 'iteration', legendCall: 'call', legendEvent: 'event', legendLife: 'goroutine alive',
      stats: (spans, lanes, dur) => `${spans} spans · ${lanes} lanes · ${dur} simulated`,
      introTitle: 'Step through the recording',
      intro: (n) => `Press → or ▶ to walk through the recording one step at a time (${n} steps): ` +
        'each goroutine starting, every recorded iteration of its loop, its calls, the events on its spans, and its end. ' +
        "The current goroutine's lane is highlighted. ← goes back. Drag to pan, use the wheel or + and − to zoom, " +
        'hover over a mark for its details and click it to make it the current step. ' +
        'Shift with the wheel, the wheel over the names, or ↑ and ↓ scroll the lanes.',
      noSteps: 'This recording has no steps.',
      stepOf: (i, n) => `Step ${i + 1} of ${n}`,
      head: [
        (l) => `${l} starts`,
        (l, name, n) => `${l}: iteration ${n}, ${name}`,
        (l, name) => `${l} calls ${name}`,
        (l, name) => `${l}: event “${name}”`,
        (l, name, n, d) => `${l} returns after ${d}`,
      ],
      kinds: ['started', 'iteration', 'call', 'event', 'stopped', 'goroutine', 'instance'],
      what: 'What it does', article: 'The article says', source: 'In the Kubernetes source', now: 'Then vs now',
      skipped: (k) => `${k} idle iteration${k === 1 ? '' : 's'} before this one ${k === 1 ? 'was' : 'were'} sampled out of the recording.`,
      mainLane: "Not a goroutine: the instance's main line of execution. The startup steps, in the order the articles show them, the scenario's actions and the root span run here.",
      unknown: (g) => `kubeloom's goroutine catalog has no entry for ${g}; the recording may come from another version of kubeloom.`,
      every: (p) => `every ${p}`, eventDriven: 'event driven', open: 'still running when the recording ended',
      detailsHint: 'Hover over a mark for its details; click it to keep them here and make it the current step.',
      more: (n) => `${n} more mark${n === 1 ? '' : 's'} here; zoom in to tell them apart.`,
      f: {
        instance: 'instance', lane: 'lane', goroutine: 'goroutine', kind: 'kind', period: 'period', start: 'start',
        end: 'end', duration: 'duration', at: 'at', iteration: 'iteration', skipped: 'skipped before',
        marks: 'marks', lanes: 'lanes', attributes: 'Attributes',
      },
      counts: (it, ca, ev) => `${it} iterations, ${ca} calls, ${ev} events`,
      object: 'object',
    },
    zh: {
      fit: '全部', zoomIn: '放大（+ 或滚轮）', zoomOut: '缩小（− 或滚轮）',
      fitTitle: '显示整个记录（0）', first: '回到开头（Home）',
      prev: '上一步（←）', next: '下一步（→）', lang: 'English', langTitle: 'Switch to English',
      legendIteration: '迭代', legendCall: '调用', legendEvent: '事件', legendLife: 'goroutine 存活',
      stats: (spans, lanes, dur) => `${spans} 个 span · ${lanes} 条泳道 · 模拟时间 ${dur}`,
      introTitle: '逐步回放这份记录',
      intro: (n) => `按 → 或 ▶ 一步一步地回放这份记录（共 ${n} 步）：每个 goroutine 的启动、` +
        '它的循环被记录下来的每一次迭代、它的调用、它的 span 上的事件，以及它的退出。' +
        '当前 goroutine 的泳道会高亮显示。← 后退。拖动可平移，滚轮或 + 和 − 可缩放，' +
        '把鼠标悬停在标记上可查看详情，点击标记可把它设为当前步骤。' +
        '按住 Shift 滚动滚轮、在名称上滚动滚轮或按 ↑ 和 ↓ 可上下滚动泳道。',
      noSteps: '这份记录没有任何步骤。',
      stepOf: (i, n) => `第 ${i + 1} 步，共 ${n} 步`,
      head: [
        (l) => `${l} 启动`,
        (l, name, n) => `${l}：第 ${n} 次迭代，${name}`,
        (l, name) => `${l} 调用 ${name}`,
        (l, name) => `${l}：事件“${name}”`,
        (l, name, n, d) => `${l} 运行 ${d} 后返回`,
      ],
      kinds: ['启动', '迭代', '调用', '事件', '返回', 'goroutine', '实例'],
      what: '它做什么', article: '文章原文', source: 'Kubernetes 源码', now: '当年与现在',
      skipped: (k) => `在这次之前有 ${k} 次空闲迭代被采样省略，没有写入记录。`,
      mainLane: '这不是 goroutine，而是该实例的主执行线：按文章所示顺序执行的启动步骤、场景中的动作以及根 span 都在这里运行。',
      unknown: (g) => `kubeloom 的 goroutine 目录中没有 ${g} 的条目；这份记录可能来自其他版本的 kubeloom。`,
      every: (p) => `每 ${p} 一次`, eventDriven: '事件驱动', open: '记录结束时仍在运行',
      detailsHint: '把鼠标悬停在标记上可查看详情；点击可把详情固定在这里，并把该标记设为当前步骤。',
      more: (n) => `此处还有 ${n} 个标记；放大后可以区分它们。`,
      f: {
        instance: '实例', lane: '泳道', goroutine: 'goroutine', kind: '类型', period: '周期', start: '开始',
        end: '结束', duration: '时长', at: '时间', iteration: '迭代', skipped: '此前省略',
        marks: '标记', lanes: '泳道', attributes: '属性',
      },
      counts: (it, ca, ev) => `${it} 次迭代，${ca} 次调用，${ev} 个事件`,
      object: '对象',
    },
  };
  let T = TEXT.en;

  // ---- Formatting ---------------------------------------------------------

  function trimZeros(s) {
    return s.indexOf('.') < 0 ? s : s.replace(/0+$/, '').replace(/\.$/, '');
  }

  // fmtDur formats a duration in microseconds the way Go prints durations.
  function fmtDur(us) {
    if (us < 0) return '-' + fmtDur(-us);
    if (us === 0) return '0s';
    if (us < 1000) return us + 'µs';
    if (us < 1e6) return trimZeros((us / 1e3).toFixed(3)) + 'ms';
    if (us < 60e6) return trimZeros((us / 1e6).toFixed(6)) + 's';
    const h = Math.floor(us / 3600e6);
    const m = Math.floor((us % 3600e6) / 60e6);
    const s = trimZeros(((us % 60e6) / 1e6).toFixed(3));
    return (h ? h + 'h' : '') + ((h || m) ? m + 'm' : '') + s + 's';
  }
  const fmtOff = (us) => '+' + fmtDur(us);

  // fmtTick labels an axis tick at t for ticks step apart.
  function fmtTick(t, step) {
    const d = Math.max(0, Math.ceil(-Math.log10(step / 1e6) - 1e-9));
    if (t < 60e6) return trimZeros((t / 1e6).toFixed(d)) + 's';
    const m = Math.floor(t / 60e6), s = trimZeros(((t % 60e6) / 1e6).toFixed(d));
    return m + 'm' + (s === '0' ? '' : s + 's');
  }

  const ESC = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
  const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ESC[c]);

  // attr returns the value of key in attribute set i, or undefined.
  const keyIndex = new Map(S.map((s, i) => [s, i]));
  function attr(i, key) {
    const k = keyIndex.get(key), a = D.attrs[i];
    if (k === undefined) return undefined;
    for (let j = 0; j < a.length; j += 2) if (a[j] === k) return valueText(a[j + 1]);
    return undefined;
  }

  function valueText(vi) {
    const v = D.values[vi];
    return typeof v === 'string' ? v : JSON.stringify(v);
  }

  // ---- Model --------------------------------------------------------------

  function maxDur(arr, stride) {
    let m = 0;
    for (let i = 1; i < arr.length; i += stride) if (arr[i] > m) m = arr[i];
    return m;
  }

  const lanes = D.lanes.map((l, i) => ({
    i, raw: l, inst: l.in, label: S[l.label], g: S[l.g], kind: S[l.kind],
    start: l.start, end: l.end, open: !!l.open, period: l.period, entry: l.entry >= 0 ? D.entries[l.entry] : null,
    it: l.it, calls: l.calls, events: l.events,
    itMax: maxDur(l.it, IT), callMax: maxDur(l.calls, CA),
  }));
  const nSteps = D.steps.length / ST;
  api.lanes = lanes.length;
  api.instances = D.instances.length;
  api.steps = nSteps;

  // Rows: an instance header, then its lanes.
  const HEAD_H = 22, LANE_H = 18, AXIS_H = 24;
  const rowY = [], rowH = [], rowLane = [], rowInst = [], laneRow = new Int32Array(lanes.length), headRow = [];
  let contentH = 0;
  D.instances.forEach((inst, ii) => {
    headRow.push(rowY.length);
    rowY.push(contentH); rowH.push(HEAD_H); rowLane.push(-1); rowInst.push(ii);
    contentH += HEAD_H;
    for (let li = inst.first; li < inst.first + inst.count; li++) {
      laneRow[li] = rowY.length;
      rowY.push(contentH); rowH.push(LANE_H); rowLane.push(li); rowInst.push(ii);
      contentH += LANE_H;
    }
  });
  contentH += 8;

  // rowAt returns the row at content y, or -1.
  function rowAt(y) {
    let lo = 0, hi = rowY.length - 1, r = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (rowY[mid] <= y) { r = mid; lo = mid + 1; } else hi = mid - 1;
    }
    return r >= 0 && y < rowY[r] + rowH[r] ? r : -1;
  }

  // lowerBound returns the first mark of arr whose time is >= t.
  function lowerBound(arr, stride, t) {
    let lo = 0, hi = arr.length / stride;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (arr[mid * stride] < t) lo = mid + 1; else hi = mid;
    }
    return lo;
  }

  function step(i) {
    const o = i * ST;
    return { i, lane: lanes[D.steps[o]], kind: D.steps[o + 1], mark: D.steps[o + 2] };
  }

  // stepTime is when step s happens, and markSpan its mark's [start, end].
  function markSpan(s) {
    const l = s.lane;
    switch (s.kind) {
      case 0: return [l.start, l.start];
      case 1: return [l.it[s.mark * IT], l.it[s.mark * IT] + l.it[s.mark * IT + 1]];
      case 2: return [l.calls[s.mark * CA], l.calls[s.mark * CA] + l.calls[s.mark * CA + 1]];
      case 3: return [l.events[s.mark * EV], l.events[s.mark * EV]];
      default: return [l.end, l.end];
    }
  }

  function markName(l, kind, m) {
    switch (kind) {
      case 1: return S[l.it[m * IT + 2]];
      case 2: return S[l.calls[m * CA + 2]];
      case 3: return S[l.events[m * EV + 1]];
      default: return l.label;
    }
  }

  // stepOf maps (lane, kind, mark) to the index of its step; the index is
  // built on first use (a click).
  let stepIndex = null;
  function stepOf(li, kind, m) {
    if (!stepIndex) {
      stepIndex = lanes.map((l) => ({
        s: -1, e: -1,
        1: new Int32Array(l.it.length / IT).fill(-1),
        2: new Int32Array(l.calls.length / CA).fill(-1),
        3: new Int32Array(l.events.length / EV).fill(-1),
      }));
      for (let i = 0; i < nSteps; i++) {
        const o = i * ST, x = stepIndex[D.steps[o]], k = D.steps[o + 1];
        if (k === 0) x.s = i; else if (k === 4) x.e = i; else x[k][D.steps[o + 2]] = i;
      }
    }
    const x = stepIndex[li];
    if (kind === 0) return x.s;
    if (kind === 4) return x.e;
    return x[kind][m];
  }

  // ---- View ---------------------------------------------------------------

  const canvas = $('canvas');
  const ctx = canvas.getContext('2d', { alpha: false });
  let W = 0, H = 0, dpr = 1, gutter = 260;
  const view = { t0: 0, scale: 1, y: 0 };
  let fitted = true;
  const span = Math.max(D.duration, 1);
  const plotW = () => Math.max(W - gutter, 10);
  const plotH = () => Math.max(H - AXIS_H, 10);
  const X = (t) => gutter + (t - view.t0) * view.scale;
  const tAt = (x) => view.t0 + (x - gutter) / view.scale;

  function fitScale() { return (plotW() - 24) / span; }

  function clampView() {
    const minScale = fitScale() / 4, maxScale = 20; // 20 px per µs
    view.scale = Math.min(Math.max(view.scale, minScale), Math.max(maxScale, minScale));
    // The recording fills the view, with a margin; zoomed out further, it
    // stays in the middle.
    const vis = plotW() / view.scale, pad = 12 / view.scale;
    if (vis >= span + 2 * pad) view.t0 = (span - vis) / 2;
    else view.t0 = Math.min(Math.max(view.t0, -pad), span + pad - vis);
    view.y = Math.min(Math.max(view.y, 0), Math.max(0, contentH - plotH()));
  }

  function fit() {
    view.scale = fitScale();
    view.t0 = -12 / view.scale;
    fitted = true;
    clampView();
    requestRender();
  }

  // zoomAt zooms by f keeping the time under x where it is.
  function zoomAt(f, x) {
    const t = tAt(x);
    view.scale *= f;
    clampView();
    view.t0 = t - (x - gutter) / view.scale;
    fitted = false;
    clampView();
    requestRender();
  }

  function resize() {
    const r = canvas.getBoundingClientRect();
    dpr = window.devicePixelRatio || 1;
    W = Math.max(1, Math.round(r.width));
    H = Math.max(1, Math.round(r.height));
    canvas.width = Math.round(W * dpr);
    canvas.height = Math.round(H * dpr);
    const g = Math.round(Math.min(300, Math.max(140, W * 0.24)));
    if (g !== gutter) { gutter = g; labelCache.clear(); }
    if (fitted) fit(); else clampView();
    render();
  }

  // ---- Drawing ------------------------------------------------------------

  const C = {
    bg: '#ffffff', stripe: 'rgba(31, 35, 40, 0.028)', head: '#eef1f4', headText: '#1f2328', text: '#3d444d', muted: '#8b949e',
    grid: '#eceff2', axis: '#59636e', life: '#c3c9d1', lifeOpen: '#dde1e6', startTick: '#1a7f37', endTick: '#59636e',
    it: '#2f6fde', call: '#e39a0b', ev: '#b3261e', cur: 'rgba(255, 200, 0, 0.22)', curLine: '#d1242f',
    hover: '#1f2328', gutter: '#fafbfc', gutterLine: '#d0d7de',
  };
  const FONT = '12px system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "WenQuanYi Micro Hei", sans-serif';
  const FONT_B = 'bold ' + FONT;
  const labelCache = new Map();

  function fitText(key, text, max, font) {
    const k = key + '|' + font;
    let v = labelCache.get(k);
    if (v === undefined) {
      ctx.font = font;
      v = text;
      if (ctx.measureText(v).width > max) {
        let lo = 0, hi = text.length;
        while (lo < hi) {
          const mid = (lo + hi + 1) >> 1;
          if (ctx.measureText(text.slice(0, mid) + '…').width <= max) lo = mid; else hi = mid - 1;
        }
        v = text.slice(0, lo) + '…';
      }
      labelCache.set(k, v);
    }
    return v;
  }

  let sticky = null; // the instance header pinned at the top: {ii, y}
  let pending = false;
  function requestRender() {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => { pending = false; render(); });
  }

  let marksDrawn = 0;

  // drawSpans draws the marks of arr that are in view as rectangles from y
  // to y+h, merging marks narrower than 2px with their neighbours closer
  // than a pixel: at any zoom a lane costs at most one rectangle per pixel.
  function drawSpans(arr, stride, max, y, h) {
    const n = arr.length / stride;
    if (!n) return;
    const tEnd = tAt(W);
    let i = lowerBound(arr, stride, tAt(gutter) - max);
    let rx0 = 0, rx1 = -1;
    ctx.beginPath();
    for (; i < n; i++) {
      const o = i * stride, s = arr[o];
      if (s > tEnd) break;
      let x0 = X(s), x1 = X(s + arr[o + 1]);
      if (x1 < gutter) continue;
      if (x0 < gutter) x0 = gutter;
      if (x1 > W) x1 = W;
      const narrow = x1 - x0 < 2;
      if (narrow) x1 = Math.max(x1, x0 + 1);
      else if (x1 - x0 >= 4) x1 -= 1; // a gap between wide neighbours
      if (rx1 >= 0 && narrow && x0 < rx1 + 1) { if (x1 > rx1) rx1 = x1; continue; }
      if (rx1 >= 0) { ctx.rect(rx0, y, rx1 - rx0, h); marksDrawn++; }
      rx0 = x0; rx1 = x1;
    }
    if (rx1 >= 0) { ctx.rect(rx0, y, rx1 - rx0, h); marksDrawn++; }
    ctx.fill();
  }

  // drawEvents draws one diamond per pixel column that holds events.
  function drawEvents(arr, y) {
    const n = arr.length / EV;
    if (!n) return;
    const tEnd = tAt(W);
    let i = lowerBound(arr, EV, tAt(gutter - 4));
    let last = -1e9;
    ctx.beginPath();
    for (; i < n; i++) {
      const t = arr[i * EV];
      if (t > tEnd) break;
      const x = Math.round(X(t));
      if (x - last < 2) continue;
      last = x;
      ctx.moveTo(x, y - 4); ctx.lineTo(x + 3.5, y); ctx.lineTo(x, y + 4); ctx.lineTo(x - 3.5, y); ctx.closePath();
      marksDrawn++;
    }
    ctx.fill();
  }

  function drawLane(l, y, row, current) {
    if (current) { ctx.fillStyle = C.cur; ctx.fillRect(0, y, W, LANE_H); }
    else if (row % 2 === 0) { ctx.fillStyle = C.stripe; ctx.fillRect(gutter, y, W - gutter, LANE_H); }
    // Lifetime: a thin bar from start to end, ticks where the goroutine
    // starts and (unless it outlived the recording) returns.
    const xs = Math.max(X(l.start), gutter), xe = Math.min(X(l.end), W);
    if (xe >= gutter && xs <= W) {
      ctx.fillStyle = l.open ? C.lifeOpen : C.life;
      ctx.fillRect(xs, y + 8, Math.max(xe - xs, 1), 3);
      if (l.g !== 'main') {
        if (X(l.start) >= gutter) { ctx.fillStyle = C.startTick; ctx.fillRect(X(l.start), y + 3, 2, LANE_H - 6); }
        if (!l.open && X(l.end) <= W) { ctx.fillStyle = C.endTick; ctx.fillRect(X(l.end) - 2, y + 3, 2, LANE_H - 6); }
      }
    }
    ctx.fillStyle = C.it;
    drawSpans(l.it, IT, l.itMax, y + 2, 7);
    ctx.fillStyle = C.call;
    drawSpans(l.calls, CA, l.callMax, y + 9, 7);
    ctx.fillStyle = C.ev;
    drawEvents(l.events, y + 9);
  }

  function niceStep(minUs) {
    const p = Math.pow(10, Math.floor(Math.log10(minUs)));
    for (const m of [1, 2, 5, 10]) if (m * p >= minUs) return m * p;
    return 10 * p;
  }

  function drawAxis() {
    ctx.fillStyle = C.bg;
    ctx.fillRect(0, 0, W, AXIS_H);
    const stepUs = Math.max(niceStep(90 / view.scale), 1);
    const first = Math.ceil(tAt(gutter) / stepUs) * stepUs;
    ctx.font = FONT;
    ctx.textBaseline = 'middle';
    ctx.textAlign = 'left';
    for (let t = first; X(t) <= W; t += stepUs) {
      const x = Math.round(X(t)) + 0.5;
      ctx.fillStyle = C.grid;
      ctx.fillRect(x, AXIS_H, 1, H - AXIS_H);
      ctx.fillStyle = C.axis;
      ctx.fillRect(x, AXIS_H - 6, 1, 6);
      ctx.fillText(fmtTick(t, stepUs), x + 3, AXIS_H / 2 - 1);
    }
    ctx.fillStyle = C.gutterLine;
    ctx.fillRect(0, AXIS_H - 1, W, 1);
    ctx.fillStyle = C.gutter;
    ctx.fillRect(0, 0, gutter, AXIS_H - 1);
  }

  function render() {
    const t0 = performance.now();
    marksDrawn = 0;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.fillStyle = C.bg;
    ctx.fillRect(0, 0, W, H);
    const cur = api.step >= 0 ? step(api.step) : null;
    const ph = plotH();

    // Vertical grid first, under the lanes.
    drawAxis();

    let r = rowAt(view.y);
    if (r < 0) r = 0;
    let drawn = 0;
    ctx.save();
    ctx.beginPath();
    ctx.rect(0, AXIS_H, W, ph);
    ctx.clip();
    const visible = [];
    for (; r < rowY.length; r++) {
      const y = AXIS_H + rowY[r] - view.y;
      if (y > H) break;
      if (rowY[r] + rowH[r] < view.y) continue;
      visible.push(r);
      const li = rowLane[r];
      if (li < 0) {
        ctx.fillStyle = C.head;
        ctx.fillRect(0, y, W, HEAD_H);
        continue;
      }
      drawLane(lanes[li], y, r, cur && cur.lane.i === li);
      drawn++;
    }

    // The current step: a line at its time and a frame around its mark.
    if (cur) {
      const [s, e] = markSpan(cur);
      const x = X(s);
      if (x >= gutter && x <= W) {
        ctx.fillStyle = C.curLine;
        ctx.globalAlpha = 0.55;
        ctx.fillRect(Math.round(x), AXIS_H, 1, ph);
        ctx.globalAlpha = 1;
      }
      const y = AXIS_H + rowY[laneRow[cur.lane.i]] - view.y;
      ctx.strokeStyle = C.curLine;
      ctx.lineWidth = 2;
      const x0 = Math.max(X(s), gutter), x1 = Math.min(Math.max(X(e), X(s) + 1), W);
      if (x1 >= gutter && x0 <= W) ctx.strokeRect(x0 - 3, y + 1, x1 - x0 + 6, LANE_H - 2);
    }
    if (hover && hover.li >= 0 && hover.kind >= 1 && hover.kind <= 3) {
      const [s, e] = hover.span;
      const y = AXIS_H + rowY[laneRow[hover.li]] - view.y;
      ctx.strokeStyle = C.hover;
      ctx.lineWidth = 1;
      const x0 = Math.max(X(s), gutter), x1 = Math.min(Math.max(X(e), X(s) + 1), W);
      ctx.strokeRect(Math.round(x0 - 2) + 0.5, y + 0.5, Math.round(x1 - x0 + 4), LANE_H - 1);
    }

    // The gutter: instance names and lane labels.
    ctx.fillStyle = C.gutter;
    ctx.fillRect(0, AXIS_H, gutter, ph);
    ctx.textBaseline = 'middle';
    ctx.textAlign = 'left';
    for (const r of visible) {
      const y = AXIS_H + rowY[r] - view.y;
      const li = rowLane[r];
      if (li < 0) {
        const inst = D.instances[rowInst[r]];
        ctx.fillStyle = C.head;
        ctx.fillRect(0, y, gutter, HEAD_H);
        ctx.font = FONT_B;
        ctx.fillStyle = C.headText;
        const name = S[inst.name] + '  (' + inst.count + ')';
        ctx.fillText(fitText('i' + rowInst[r], name, gutter - 16, FONT_B), 8, y + HEAD_H / 2);
        continue;
      }
      const l = lanes[li];
      const isCur = cur && cur.lane.i === li;
      if (isCur) { ctx.fillStyle = C.cur; ctx.fillRect(0, y, gutter, LANE_H); }
      const font = isCur ? FONT_B : FONT;
      ctx.font = font;
      ctx.fillStyle = l.g === 'main' ? C.muted : C.text;
      ctx.fillText(fitText(li, l.label, gutter - 30, font), 20, y + LANE_H / 2);
    }
    ctx.fillStyle = C.gutterLine;
    ctx.fillRect(gutter - 1, AXIS_H, 1, ph);

    // The instance of the top lane stays named at the top, until the next
    // instance's header pushes it away.
    sticky = null;
    if (visible.length) {
      const ii = rowInst[visible[0]];
      if (AXIS_H + rowY[headRow[ii]] - view.y < AXIS_H) {
        const next = ii + 1 < headRow.length ? AXIS_H + rowY[headRow[ii + 1]] - view.y : Infinity;
        const y = Math.min(AXIS_H, next - HEAD_H);
        sticky = { ii, y };
        ctx.fillStyle = C.head;
        ctx.fillRect(0, y, W, HEAD_H);
        ctx.fillStyle = C.gutterLine;
        ctx.fillRect(0, y + HEAD_H - 1, W, 1);
        ctx.font = FONT_B;
        ctx.fillStyle = C.headText;
        const inst = D.instances[ii];
        ctx.fillText(fitText('i' + ii, S[inst.name] + '  (' + inst.count + ')', gutter - 16, FONT_B), 8, y + HEAD_H / 2);
      }
    }

    // A scroll indicator when the lanes do not fit.
    if (contentH > ph) {
      const bh = Math.max(20, (ph * ph) / contentH);
      const by = AXIS_H + (view.y / (contentH - ph)) * (ph - bh);
      ctx.fillStyle = 'rgba(31, 35, 40, 0.25)';
      ctx.fillRect(W - 5, by, 4, bh);
    }
    ctx.restore();

    api.drawnLanes = drawn;
    api.drawnMarks = marksDrawn;
    api.frameMs = performance.now() - t0;
  }

  // ---- Hit testing and details -------------------------------------------

  // nearest finds the mark of arr closest to time t within tol, measuring
  // each mark as drawn (at least a pixel wide); it returns {m, dist, count}
  // (count: the marks within tol) or null.
  function nearest(arr, stride, isPoint, max, t, tol) {
    const n = arr.length / stride, px = 1 / view.scale;
    let i = lowerBound(arr, stride, t - tol - max - px);
    let best = -1, bestD = Infinity, bestLen = Infinity, count = 0;
    for (; i < n; i++) {
      const o = i * stride, s = arr[o];
      if (s > t + tol) break;
      const len = isPoint ? 0 : arr[o + 1];
      const e = s + Math.max(len, px);
      const d = t < s ? s - t : t > e ? t - e : 0;
      if (d > tol) continue;
      count++;
      if (d < bestD || (d === bestD && len < bestLen)) { best = i; bestD = d; bestLen = len; }
    }
    return best < 0 ? null : { m: best, dist: bestD, count };
  }

  // Where each kind of mark is drawn in a lane: [top, bottom) in pixels,
  // and the order in which equally close marks win (the smaller first).
  const BANDS = { 1: [2, 9], 2: [9, 16], 3: [6, 13] };
  const WIN = { 3: 0, 2: 1, 1: 2 };

  // hit returns what is under the viewport point (x, y): the mark closest
  // to it (horizontal distance plus the distance to the mark's band), else
  // the lane, the instance, or null.
  function hit(x, y) {
    if (y < AXIS_H) return null;
    if (sticky && y >= sticky.y && y < sticky.y + HEAD_H) return { li: -1, inst: sticky.ii, kind: 6 };
    const cy = y - AXIS_H + view.y;
    const r = rowAt(cy);
    if (r < 0) return null;
    const li = rowLane[r];
    if (li < 0) return { li: -1, inst: rowInst[r], kind: 6 };
    const l = lanes[li];
    if (x < gutter) return { li, kind: 5 };
    const t = tAt(x), tol = 4 / view.scale, ly = cy - rowY[r];
    let best = null, bestScore = Infinity;
    const consider = (kind, c) => {
      if (!c) return;
      const [a, b] = BANDS[kind];
      const dy = ly < a ? a - ly : ly >= b ? ly - b + 1 : 0;
      const score = c.dist * view.scale + dy;
      if (score > 6) return;
      if (score < bestScore || (score === bestScore && WIN[kind] < WIN[best.kind])) {
        best = { kind, ...c };
        bestScore = score;
      }
    };
    consider(3, nearest(l.events, EV, true, 0, t, tol));
    consider(2, nearest(l.calls, CA, false, l.callMax, t, tol));
    consider(1, nearest(l.it, IT, false, l.itMax, t, tol));
    if (!best) {
      if (t >= l.start - tol && t <= l.end + tol) return { li, kind: 5 };
      return null;
    }
    const h = { li, kind: best.kind, m: best.m, count: best.count };
    h.span = markSpan({ lane: l, kind: best.kind, mark: best.m });
    return h;
  }

  function row(k, v, raw) {
    return `<tr><td>${esc(k)}</td><td>${raw ? v : esc(v)}</td></tr>`;
  }

  function attrRows(set) {
    const a = D.attrs[set];
    let out = '';
    for (let i = 0; i < a.length; i += 2) out += row(S[a[i]], `<code>${esc(valueText(a[i + 1]))}</code>`, true);
    return out;
  }

  function detailsHTML(h) {
    const f = T.f;
    if (!h) return `<p class="hint">${esc(T.detailsHint)}</p>`;
    if (h.kind === 6) {
      const inst = D.instances[h.inst];
      return `<h2><span class="kind">${esc(T.kinds[6])}</span>${esc(S[inst.name])}</h2><table>` +
        row('service.name', S[inst.service]) + row('service.instance.id', S[inst.id]) + row(f.lanes, inst.count) + '</table>';
    }
    const l = lanes[h.li];
    const inst = S[D.instances[l.inst].name];
    let out = '';
    if (h.kind === 5) {
      out += `<h2><span class="kind">${esc(T.kinds[5])}</span>${esc(l.label)}</h2><table>`;
      out += row(f.instance, inst) + row(f.goroutine, l.g);
      if (l.kind) out += row(f.kind, l.kind);
      if (l.period) out += row(f.period, fmtDur(l.period));
      out += row(f.start, fmtOff(l.start));
      out += row(f.end, l.open ? fmtOff(l.end) + ' (' + T.open + ')' : fmtOff(l.end));
      out += row(f.duration, fmtDur(l.end - l.start));
      out += row(f.marks, T.counts(l.it.length / IT, l.calls.length / CA, l.events.length / EV));
      out += '</table>';
      const set = attrRows(l.raw.attrs);
      if (set) out += `<h3>${esc(f.attributes)}</h3><table>${set}</table>`;
      return out;
    }
    const name = markName(l, h.kind, h.m);
    const [s, e] = h.span;
    out += `<h2><span class="kind k${h.kind}">${esc(T.kinds[h.kind])}</span>${esc(name)}</h2><table>`;
    out += row(f.instance, inst) + row(f.lane, l.label);
    let set = 0;
    if (h.kind === 3) {
      out += row(f.at, fmtOff(s));
      set = l.events[h.m * EV + 2];
    } else {
      out += row(f.start, fmtOff(s)) + row(f.end, fmtOff(e)) + row(f.duration, fmtDur(e - s));
      if (h.kind === 1) {
        const o = h.m * IT;
        out += row(f.iteration, l.it[o + 3]);
        if (l.it[o + 4]) out += row(f.skipped, l.it[o + 4]);
        set = l.it[o + 5];
      } else set = l.calls[h.m * CA + 3];
    }
    out += '</table>';
    if (h.count > 1) out += `<p class="hint">${esc(T.more(h.count - 1))}</p>`;
    const a = attrRows(set);
    if (a) out += `<h3>${esc(f.attributes)}</h3><table>${a}</table>`;
    return out;
  }

  let hover = null, pinned = null;
  function showDetails() {
    $('details').innerHTML = detailsHTML(pinned || hover);
  }

  // ---- Steps and narrative ----------------------------------------------

  function narrativeHTML() {
    if (!nSteps) return `<h2>${esc(T.introTitle)}</h2><p>${esc(T.noSteps)}</p>`;
    if (api.step < 0) return `<h2>${esc(T.introTitle)}</h2><p>${esc(T.intro(nSteps))}</p>`;
    const s = step(api.step), l = s.lane;
    const [at] = markSpan(s);
    const inst = S[D.instances[l.inst].name];
    let n = 0;
    if (s.kind === 1) n = l.it[s.mark * IT + 3];
    const head = T.head[s.kind](l.label, markName(l, s.kind, s.mark), n, fmtDur(l.end - l.start));
    let out = `<div class="where">${esc(T.stepOf(s.i, nSteps))} · ${esc(fmtOff(at))} · ${esc(inst)}</div>`;
    out += `<h2><span class="kind k${s.kind}">${esc(T.kinds[s.kind])}</span>${esc(head)}</h2>`;
    const set = s.kind === 1 ? l.it[s.mark * IT + 5] : s.kind === 2 ? l.calls[s.mark * CA + 3] : s.kind === 3 ? l.events[s.mark * EV + 2] : 0;
    const key = attr(set, 'k8s.object.key');
    if (key !== undefined) out += `<p>${esc(T.object)} <code>${esc(key)}</code>${(v => v ? ' · ' + esc(v) : '')(attr(set, 'k8s.event.type'))}</p>`;
    if (s.kind === 1 && l.it[s.mark * IT + 4] > 0) out += `<p>${esc(T.skipped(l.it[s.mark * IT + 4]))}</p>`;
    const si = D.stepStartup ? D.stepStartup[s.i] : undefined;
    if (si !== undefined) { // a startup step the catalog tells
      const st = D.startup[si];
      out += `<h3>${esc(T.what)}</h3><p>${esc(api.lang === 'zh' && st.summaryZH ? st.summaryZH : st.summary)}</p>`;
      if (st.quote) {
        out += `<h3>${esc(T.article)}</h3><blockquote lang="zh">${esc(st.quote)}</blockquote>`;
        if (st.article) out += `<p class="src">${esc(st.article)}</p>`;
      }
      if (st.function) out += `<h3>${esc(T.source)}</h3><p><code>${esc(st.function)}</code></p><p class="src"><code>${esc(st.file)}</code></p>`;
      return out;
    }
    const e = l.entry;
    if (!e) {
      out += `<p>${esc(l.g === 'main' ? T.mainLane : T.unknown(l.g))}</p>`;
      return out;
    }
    const summary = api.lang === 'zh' && e.summaryZH ? e.summaryZH : e.summary;
    out += `<h3>${esc(T.what)}</h3><p>${esc(summary)}</p>`;
    const how = [e.kind, e.period ? T.every(fmtDur(Math.round(e.period * 1e6))) : T.eventDriven].filter(Boolean).join(', ');
    if (e.quote) {
      out += `<h3>${esc(T.article)}</h3><blockquote lang="zh">${esc(e.quote)}</blockquote>`;
      if (e.article) out += `<p class="src">${esc(e.article)}</p>`;
    }
    out += `<h3>${esc(T.source)}</h3><p><code>${esc(e.function)}</code></p><p class="src"><code>${esc(e.file)}</code> · ${esc(how)}</p>`;
    const now = api.lang === 'zh' && e.nowZH ? e.nowZH : e.now;
    if (now) out += `<h3>${esc(T.now)}</h3><p>${esc(now)}</p>`;
    return out;
  }

  function showNarrative() {
    $('narrative').innerHTML = narrativeHTML();
    $('step-pos').textContent = nSteps ? (api.step < 0 ? '– / ' : api.step + 1 + ' / ') + nSteps : '0 / 0';
    $('step-prev').disabled = api.step < 0;
    $('step-first').disabled = api.step < 0;
    $('step-next').disabled = api.step >= nSteps - 1;
  }

  // reveal scrolls and pans so that step s is in view.
  function reveal(s) {
    const ph = plotH();
    const ry = rowY[laneRow[s.lane.i]];
    if (ry < view.y + HEAD_H + LANE_H || ry + LANE_H > view.y + ph - LANE_H) view.y = ry - ph / 3;
    const [a, b] = markSpan(s);
    const margin = 40 / view.scale;
    if (a < tAt(gutter) + margin || a > tAt(W) - margin) {
      view.t0 = (a + b) / 2 - plotW() / 2 / view.scale;
      fitted = false;
    }
    clampView();
  }

  function go(i) {
    if (!nSteps) return;
    i = Math.min(Math.max(i, -1), nSteps - 1);
    api.step = i;
    if (i >= 0) reveal(step(i));
    showNarrative();
    saveHash();
    requestRender();
  }

  function setLang(lang) {
    api.lang = lang === 'zh' ? 'zh' : 'en';
    T = TEXT[api.lang];
    document.documentElement.lang = api.lang === 'zh' ? 'zh-CN' : 'en';
    const b = $('lang');
    b.textContent = T.lang;
    b.title = T.langTitle;
    $('zoom-fit').textContent = T.fit;
    $('zoom-fit').title = T.fitTitle;
    $('zoom-in').title = T.zoomIn;
    $('zoom-out').title = T.zoomOut;
    $('step-first').title = T.first;
    $('step-prev').title = T.prev;
    $('step-next').title = T.next;
    for (const el of document.querySelectorAll('[data-t]')) el.textContent = T[el.dataset.t];
    $('stats').textContent = T.stats(D.spans, lanes.length, fmtDur(D.duration));
    showNarrative();
    showDetails();
    saveHash();
  }

  // The URL's fragment remembers the step and language (#step=12&lang=zh),
  // so that a reload or a shared link opens at the same place.
  function saveHash() {
    const parts = [];
    if (api.step >= 0) parts.push('step=' + api.step);
    if (api.lang === 'zh') parts.push('lang=zh');
    const h = parts.length ? '#' + parts.join('&') : '';
    if (location.hash === h) return;
    try {
      history.replaceState(null, '', h || location.pathname + location.search);
    } catch (e) { /* some browsers refuse it for file: URLs; the fragment is a convenience */ }
  }

  function loadHash() {
    const m = /step=(-?\d+)/.exec(location.hash);
    const lang = /lang=zh/.test(location.hash) ? 'zh' : 'en';
    return { step: m ? parseInt(m[1], 10) : -1, lang };
  }

  // ---- Input --------------------------------------------------------------

  let drag = null;
  canvas.addEventListener('pointerdown', (e) => {
    if (e.button !== 0) return;
    drag = { x: e.clientX, y: e.clientY, t0: view.t0, vy: view.y, moved: false };
    canvas.setPointerCapture(e.pointerId);
  });
  canvas.addEventListener('pointermove', (e) => {
    const r = canvas.getBoundingClientRect();
    if (drag) {
      const dx = e.clientX - drag.x, dy = e.clientY - drag.y;
      if (!drag.moved && Math.abs(dx) + Math.abs(dy) < 4) return;
      if (!drag.moved) { drag.moved = true; canvas.classList.add('dragging'); }
      view.t0 = drag.t0 - dx / view.scale;
      view.y = drag.vy - dy;
      fitted = false;
      clampView();
      requestRender();
      return;
    }
    const h = hit(e.clientX - r.left, e.clientY - r.top);
    if (!sameHit(h, hover)) {
      hover = h;
      if (!pinned) showDetails();
      requestRender();
    }
  });
  canvas.addEventListener('pointerup', (e) => {
    if (!drag) return;
    const moved = drag.moved;
    drag = null;
    canvas.classList.remove('dragging');
    if (moved) return;
    const r = canvas.getBoundingClientRect();
    const h = hit(e.clientX - r.left, e.clientY - r.top);
    pinned = h && h.kind <= 5 ? h : null;
    showDetails();
    if (h && h.li >= 0) {
      const si = h.kind === 5 ? stepOf(h.li, 0, 0) : stepOf(h.li, h.kind, h.m);
      if (si >= 0 && si !== api.step) go(si);
    }
  });
  canvas.addEventListener('pointerleave', () => {
    if (hover) { hover = null; if (!pinned) showDetails(); requestRender(); }
  });
  canvas.addEventListener('wheel', (e) => {
    e.preventDefault();
    const r = canvas.getBoundingClientRect();
    const x = e.clientX - r.left;
    const k = e.deltaMode === 1 ? 16 : e.deltaMode === 2 ? H : 1;
    const dx = e.deltaX * k, dy = e.deltaY * k;
    if (e.shiftKey || x < gutter) { // scroll the lanes
      view.y += dy || dx;
    } else if (Math.abs(dx) > Math.abs(dy)) { // pan
      view.t0 += dx / view.scale;
      fitted = false;
    } else {
      zoomAt(Math.exp(-dy * 0.0015), Math.max(x, gutter));
      return;
    }
    clampView();
    requestRender();
  }, { passive: false });

  function sameHit(a, b) {
    if (!a || !b) return a === b;
    return a.li === b.li && a.kind === b.kind && a.m === b.m && a.inst === b.inst;
  }

  const center = () => gutter + plotW() / 2;
  $('zoom-in').addEventListener('click', () => zoomAt(2, center()));
  $('zoom-out').addEventListener('click', () => zoomAt(0.5, center()));
  $('zoom-fit').addEventListener('click', fit);
  $('step-first').addEventListener('click', () => go(-1));
  $('step-prev').addEventListener('click', () => go(api.step - 1));
  $('step-next').addEventListener('click', () => go(api.step + 1));
  $('lang').addEventListener('click', () => setLang(api.lang === 'zh' ? 'en' : 'zh'));

  document.addEventListener('keydown', (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    switch (e.key) {
      case 'ArrowRight': go(api.step + 1); break;
      case 'ArrowLeft': go(api.step - 1); break;
      case 'Home': go(-1); break;
      case 'End': go(nSteps - 1); break;
      case '+': case '=': zoomAt(2, center()); break;
      case '-': case '_': zoomAt(0.5, center()); break;
      case '0': fit(); break;
      case 'ArrowDown': view.y += 3 * LANE_H; clampView(); requestRender(); break;
      case 'ArrowUp': view.y -= 3 * LANE_H; clampView(); requestRender(); break;
      case 'PageDown': view.y += plotH() - LANE_H; clampView(); requestRender(); break;
      case 'PageUp': view.y -= plotH() - LANE_H; clampView(); requestRender(); break;
      default: return;
    }
    e.preventDefault();
  });

  // ---- API for tests ------------------------------------------------------

  api.next = () => go(api.step + 1);
  api.prev = () => go(api.step - 1);
  api.go = go;
  api.setLang = setLang;
  api.zoom = (f) => zoomAt(f, center());
  api.fit = fit;
  api.narrative = () => $('narrative').innerText;
  api.details = () => $('details').innerText;
  api.view = () => ({ t0: view.t0, scale: view.scale, scrollY: view.y });
  api.redraw = () => { render(); return api.frameMs; };
  api.stepInfo = (i) => {
    const s = step(i);
    return { lane: s.lane.i, label: s.lane.label, kind: s.kind, name: markName(s.lane, s.kind, s.mark), hasEntry: !!s.lane.entry };
  };
  api.locate = (i) => {
    const s = step(i);
    reveal(s);
    render();
    const [a, b] = markSpan(s);
    const r = canvas.getBoundingClientRect();
    const ry = AXIS_H + rowY[laneRow[s.lane.i]] - view.y;
    const dy = s.kind === 1 ? 5 : s.kind === 2 ? 13 : 9;
    const x = Math.min(Math.max((X(a) + Math.max(X(b), X(a) + 1)) / 2, gutter), W);
    return { x: r.left + x, y: r.top + ry + dy };
  };

  // ---- Start --------------------------------------------------------------

  $('scenario').textContent = D.scenario || 'kubeloom';
  const start = loadHash();
  api.step = Math.min(Math.max(start.step, -1), nSteps - 1);
  setLang(start.lang);
  if (typeof ResizeObserver === 'function') new ResizeObserver(() => resize()).observe($('view'));
  else window.addEventListener('resize', resize);
  resize();
  if (api.step >= 0) { reveal(step(api.step)); render(); }
  api.firstPaintMs = performance.now();
  api.ready = true;
})();

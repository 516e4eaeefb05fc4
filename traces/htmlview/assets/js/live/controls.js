// Play, pause, step, the speed, and what the session is at: the simulated
// time and the spans so far. The controls are the token holder's; another
// browser sees them disabled, with why in their title.
import { duration } from './words.js';

const $ = (id) => document.getElementById(id);

export function mountControls({ api, live, words, status }) {
  const play = $('live-play');
  const pause = $('live-pause');
  const step = $('live-step');
  const speed = $('live-speed');
  const clock = $('live-clock');
  const spans = $('live-spans');
  const who = $('live-who');

  async function send(path, body) {
    const r = body === undefined ? await api.post(path) : await api.postJSON(path, body);
    if (!r.ok) status.fail(words.t('failed', { error: r.data.error || r.status }));
    return r;
  }
  play.addEventListener('click', () => send('/api/play'));
  pause.addEventListener('click', () => send('/api/pause'));
  step.addEventListener('click', () => send('/api/step'));
  speed.addEventListener('change', () => send('/api/speed', { speed: Number(speed.value) }));

  function render() {
    const st = live.state;
    const has = !!st && st.mode !== 'idle';
    const ended = has && st.done && st.mode === 'live';
    const can = live.canControl;
    play.disabled = !can || !has || ended || (st.playing && st.mode === 'live');
    pause.disabled = !can || !has || ended || !st.playing;
    step.disabled = !can || !has || ended;
    speed.disabled = !can || !has;
    for (const b of [play, pause, step, speed]) {
      b.title = can ? words.t(b.dataset.liveTitle || 'speed') : words.t('viewer');
    }
    who.textContent = words.t(can ? 'controller' : 'viewer');
    if (!has) {
      clock.textContent = words.t('noSession');
      spans.textContent = '';
      return;
    }
    const at = words.t('clock', { elapsed: duration(st.elapsedUs), duration: duration(st.durationUs) });
    const mode = st.mode === 'recording' ? words.t('showing', { name: st.recording })
      : st.done ? words.t('ended') : words.t(st.playing ? 'playing' : 'paused');
    clock.textContent = at + ' · ' + mode;
    spans.textContent = words.t('spans', { n: st.spans });
    if (st.mode === 'live' && document.activeElement !== speed) {
      const v = String(st.speed);
      if ([...speed.options].some((o) => o.value === v)) speed.value = v;
    }
    if (st.err) status.fail(st.err);
  }
  words.onChange(render);
  return { render };
}

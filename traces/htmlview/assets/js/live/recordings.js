// Keeping the run: download the recording (.jsonl or .jsonl.zst) and the
// self-contained HTML page of the run, which any viewer may; and open a
// recording to replay it in this page (the token holder's: every page
// then shows it, with step and follow; ▶ or step goes back to the live
// session).

const $ = (id) => document.getElementById(id);

export function mountRecordings({ api, live, words, status }) {
  const links = [$('live-download'), $('live-download-zst'), $('live-export')];
  const open = $('live-open');
  const openLabel = $('live-open-label');

  open.addEventListener('change', async () => {
    const f = open.files[0];
    open.value = '';
    if (!f) return;
    const r = await api.post('/api/open?name=' + encodeURIComponent(f.name), f, 'application/octet-stream');
    if (!r.ok) {
      status.fail(words.t('failed', { error: r.data.error || r.status }));
      return;
    }
    status.say(words.t('opened', { name: r.data.name, spans: r.data.spans }) + (r.data.warnings ? '\n' + r.data.warnings : ''));
  });

  function render() {
    const st = live.state;
    const live_ = !!st && st.mode === 'live';
    for (const a of links.slice(0, 2)) a.setAttribute('aria-disabled', String(!live_));
    links[2].setAttribute('aria-disabled', String(!st || st.mode === 'idle'));
    open.disabled = !live.canControl;
    openLabel.title = live.canControl ? '' : words.t('viewer');
    openLabel.classList.toggle('disabled', !live.canControl);
  }
  words.onChange(render);
  return { render };
}

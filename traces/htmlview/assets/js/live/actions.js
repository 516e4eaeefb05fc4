// Acting on the session now: a button per action the scenario offers
// (GET /api/templates: kill the leader, break watches, restart the
// apiserver, stop or start each kubelet, inject an OOM, set image-fs
// usage, ...), and a YAML box for any verb (create, delete, ...). Each is
// applied at the current simulated instant and recorded like a scheduled
// action; a refused one says why, and where in the YAML.

const $ = (id) => document.getElementById(id);

export function mountActions({ api, live, words, status }) {
  const buttons = $('live-action-buttons');
  const box = $('live-act-yaml');
  const apply = $('live-act');
  const error = $('live-act-error');
  let scenario = null;

  async function act(yaml) {
    error.textContent = '';
    const r = await api.post('/api/act', yaml, 'application/yaml');
    if (r.ok) {
      status.say(words.t('acted', { action: r.data.lastAction || yaml.trim() }));
      return;
    }
    const where = r.data.line ? ` (${r.data.line}:${r.data.column})` : '';
    error.classList.add('error');
    error.textContent = (r.data.error || String(r.status)) + where;
    status.fail(words.t('failed', { error: r.data.error || r.status }));
  }

  // render rebuilds the buttons only when what they show changes: a
  // state arrives many times a second, and a button replaced between
  // press and release loses the click.
  let shown = '';
  function render() {
    const st = live.state;
    const key = JSON.stringify([live.templates, live.canControl, st && st.mode, st && st.done, words.lang]);
    if (key === shown) return;
    shown = key;
    buttons.replaceChildren();
    for (const tpl of live.templates) {
      const b = document.createElement('button');
      b.type = 'button';
      b.textContent = tpl.yaml;
      b.dataset.verb = tpl.verb;
      b.disabled = !live.canControl || !live.state || live.state.mode !== 'live' || live.state.done;
      b.title = live.canControl ? '' : words.t('viewer');
      b.addEventListener('click', () => act(tpl.yaml));
      // A right click (or a long press) copies it into the box to edit.
      b.addEventListener('contextmenu', (e) => { e.preventDefault(); box.value = tpl.yaml; box.focus(); });
      buttons.append(b);
    }
    box.disabled = apply.disabled = !live.canControl;
  }

  apply.addEventListener('click', () => { if (box.value.trim()) act(box.value); });

  // The templates name the scenario's own nodes and objects: fetch them
  // again when another scenario starts.
  async function refresh() {
    const st = live.state;
    const name = st && st.mode === 'live' ? st.scenario + '\n' + st.file : null;
    if (name !== scenario) {
      scenario = name;
      const r = await api.get('/api/templates');
      live.templates = r.ok ? r.data.templates : [];
    }
    render();
  }
  words.onChange(render);
  return { refresh };
}

// The scenario picker: the built-ins with their description and what to
// watch for in the page's language, and a scenario file pasted or
// uploaded, with the errors `kubeloom scenarios validate` prints, each
// naming its line (a click on one selects the line in the box).

const $ = (id) => document.getElementById(id);

export function mountScenarios({ api, live, words, status, onStarted }) {
  const list = $('live-scenario-list');
  const box = $('live-yaml');
  const file = $('live-file');
  const run = $('live-run-yaml');
  const errors = $('live-yaml-errors');
  let fileName = '';

  function started(r) {
    errors.textContent = '';
    status.say(words.t('started', { scenario: r.data.scenario, file: r.data.file }));
    onStarted();
  }

  async function startBuiltin(name) {
    const r = await api.post('/api/session?builtin=' + encodeURIComponent(name));
    if (r.ok) started(r);
    else status.fail(words.t('failed', { error: r.data.error }));
  }

  const panel = $('live-scenarios');
  let opened = null;
  function render() {
    list.replaceChildren();
    const current = live.state && live.state.mode === 'live' ? live.state.scenario : '';
    // The list is open while there is nothing to watch, and folds away
    // for the timeline once a session runs (a click opens it again).
    const want = !current;
    if (opened !== want) panel.open = opened = want;
    for (const sc of live.scenarios) {
      const text = sc.text[words.lang] || sc.text.en || { description: '', watchFor: [] };
      const li = document.createElement('li');
      li.classList.toggle('current', sc.name === current);
      const start = document.createElement('button');
      start.type = 'button';
      start.textContent = words.t('start');
      start.disabled = !live.canControl;
      start.title = live.canControl ? '' : words.t('viewer');
      start.addEventListener('click', () => startBuiltin(sc.name));
      const name = document.createElement('strong');
      name.textContent = ' ' + sc.name + ' ';
      const desc = document.createElement('span');
      desc.className = 'desc';
      desc.textContent = text.description;
      li.append(start, name, desc);
      if (text.watchFor && text.watchFor.length) {
        const watch = document.createElement('details');
        const sum = document.createElement('summary');
        sum.textContent = words.t('watchFor');
        const ul = document.createElement('ul');
        for (const w of text.watchFor) {
          const item = document.createElement('li');
          item.textContent = w;
          ul.append(item);
        }
        watch.append(sum, ul);
        li.append(watch);
      }
      list.append(li);
    }
    box.disabled = run.disabled = file.disabled = !live.canControl;
  }

  // selectLine puts the cursor on a line of the box, for an error's place.
  function selectLine(n) {
    const lines = box.value.split('\n');
    let at = 0;
    for (let i = 0; i < n - 1 && i < lines.length; i++) at += lines[i].length + 1;
    box.focus();
    box.setSelectionRange(at, at + (lines[n - 1] || '').length);
  }

  function showProblems(data) {
    errors.replaceChildren();
    errors.classList.add('error');
    const problems = data.problems && data.problems.length ? data.problems : [{ text: data.error || '' }];
    for (const p of problems) {
      const line = document.createElement('div');
      line.textContent = p.text;
      if (p.line) {
        line.classList.add('at');
        line.addEventListener('click', () => selectLine(p.line));
      }
      errors.append(line);
    }
    live.lastError = data.error || '';
    if (problems[0].line) selectLine(problems[0].line);
  }

  run.addEventListener('click', async () => {
    const name = fileName || 'pasted.yaml';
    const r = await api.post('/api/session?file=' + encodeURIComponent(name), box.value, 'application/yaml');
    if (r.ok) started(r);
    else showProblems(r.data);
  });
  file.addEventListener('change', async () => {
    const f = file.files[0];
    if (!f) return;
    fileName = f.name;
    box.value = await f.text();
    file.value = '';
  });
  box.addEventListener('input', () => { if (!box.value) fileName = ''; });

  async function load() {
    const r = await api.get('/api/scenarios');
    if (r.ok) live.scenarios = r.data.scenarios;
    render();
  }
  words.onChange(render);
  return { load, render };
}

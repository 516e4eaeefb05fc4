// The live page's words: sim/catalog/locale/<lang>/page.yaml, which the
// server puts in the page's #kubeloom-words data block (never run as
// script). The live controls speak the timeline's language: they follow
// the page's lang attribute, which the timeline's language button sets.

const format = (text, args) =>
  text.replace(/\{(\w+)\}/g, (m, name) => (args && name in args ? String(args[name]) : m));

export function createWords(doc = document) {
  const block = doc.getElementById('kubeloom-words');
  const data = JSON.parse(block ? block.textContent : '{"lang":"en","langs":[]}');
  const langs = data.langs || [];
  let current = langs.find((l) => l.code === data.lang) || langs[0] || { code: 'en', tag: 'en', text: {} };
  const listeners = [];

  const words = {
    get lang() { return current.code; },
    // t is a word of the live page (live.KEY), with {name} arguments.
    t(key, args) {
      const text = current.text['live.' + key];
      return text === undefined ? '[' + key + ']' : format(text, args);
    },
    // apply writes the words into [data-live] (text) and
    // [data-live-title] (title) elements, always as text.
    apply(root = doc) {
      for (const el of root.querySelectorAll('[data-live]')) el.textContent = words.t(el.dataset.live);
      for (const el of root.querySelectorAll('[data-live-title]')) {
        el.title = words.t(el.dataset.liveTitle);
        el.setAttribute('aria-label', el.title);
      }
    },
    onChange(fn) { listeners.push(fn); },
    // setLang takes a language code or a BCP 47 tag (the page's lang
    // attribute): the exact tag, else the language of its first subtag.
    setLang(code) {
      const primary = String(code).split('-')[0];
      const next = langs.find((l) => l.tag === code || l.code === code) || langs.find((l) => l.code === primary);
      if (!next || next === current) return;
      current = next;
      words.apply();
      for (const fn of listeners) fn(current.code);
    },
  };
  doc.documentElement.lang = current.tag;
  new MutationObserver(() => words.setLang(doc.documentElement.lang))
    .observe(doc.documentElement, { attributes: true, attributeFilter: ['lang'] });
  words.apply();
  return words;
}

// duration writes simulated microseconds as the page's clock: 1h02m03.4s.
export function duration(us) {
  const s = Math.max(0, us) / 1e6;
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = (s % 60).toFixed(1);
  if (h) return `${h}h${String(m).padStart(2, '0')}m${sec.padStart(4, '0')}s`;
  if (m) return `${m}m${sec.padStart(4, '0')}s`;
  return `${sec}s`;
}

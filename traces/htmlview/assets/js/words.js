// Text, in the languages of the data.
//
// D.langs are kubeloom's languages (sim/catalog/locale), English first,
// each with its words (page.yaml) as written. msg formats one as Go's
// locale.Format does: {name} is an argument, {n, plural, one {…} other
// {…}} a form picked by =n or the language's plural rules (# is the
// number), and '{', '}' or '#' in quotes the character itself.
import { D } from './data.js';

// L is the page's language, one of D.langs.
export let L = null;
const parsed = new Map(); // code + '\n' + key → the message's segments

// useLang makes the language of that code (or the first) the page's,
// among the languages of the data loaded last; it returns it.
export function useLang(code) {
  const l = D.langs.find((x) => x.code === code) || D.langs[0];
  // Another recording's words may differ from the last one's.
  if (L && L !== l && !D.langs.includes(L)) parsed.clear();
  L = l;
  return L;
}

function parseMsg(s) {
  let i = 0;
  const fail = (why) => { throw new Error('kubeloom: message ' + JSON.stringify(s) + ': ' + why); };
  const space = () => { while (i < s.length && ' \n\t'.includes(s[i])) i++; };
  const word = () => { const w = /^[A-Za-z0-9_]*/.exec(s.slice(i))[0]; i += w.length; return w; };
  function segments(inForm) {
    const segs = [];
    let text = '';
    const flush = () => { if (text) { segs.push(text); text = ''; } };
    while (i < s.length) {
      const c = s[i];
      if (c === "'" && i + 2 < s.length && '{}#'.includes(s[i + 1]) && s[i + 2] === "'") { text += s[i + 1]; i += 3; }
      else if (c === '{') { flush(); segs.push(placeholder()); }
      else if (c === '}' && inForm) { i++; flush(); return segs; }
      else if (c === '}') fail('a } closes nothing');
      else if (c === '#' && inForm) { flush(); segs.push({ hash: true }); i++; }
      else { text += c; i++; }
    }
    if (inForm) fail('a plural form is not closed');
    flush();
    return segs;
  }
  function placeholder() {
    i++;
    space();
    const name = word();
    if (!name) fail('a { starts no placeholder');
    space();
    if (s[i] === '}') { i++; return { arg: name }; }
    if (s[i++] !== ',') fail('{' + name + ': expected its }');
    space();
    if (word() !== 'plural') fail('{' + name + ': the only kind is plural');
    space();
    if (s[i++] !== ',') fail('{' + name + ', plural: expected a ,');
    const forms = [];
    for (;;) {
      space();
      if (s[i] === '}') { i++; break; }
      let sel;
      if (s[i] === '=') { i++; sel = '=' + word(); } else sel = word();
      if (!sel || sel === '=') fail('{' + name + ', plural, …}: expected a form');
      space();
      if (s[i++] !== '{') fail('{' + name + ', plural, …}: the form ' + sel + ' needs its text in braces');
      forms.push([sel, segments(true)]);
    }
    return { plural: name, forms };
  }
  return segments(false);
}

function formatSegs(segs, args, rules, hash) {
  let out = '';
  for (const g of segs) {
    if (typeof g === 'string') out += g;
    else if (g.hash) out += hash;
    else if (g.arg !== undefined) out += g.arg in args ? String(args[g.arg]) : '{' + g.arg + '}';
    else if (!(g.plural in args)) out += '{' + g.plural + '}';
    else {
      const v = args[g.plural], whole = Number.isInteger(v), cat = whole ? rules.select(v) : 'other';
      let form = null, other = null;
      for (const [sel, fs] of g.forms) {
        if (whole && sel === '=' + v) { form = fs; break; }
        if (sel === cat) form = form || fs;
        if (sel === 'other') other = fs;
      }
      out += formatSegs(form || other, args, rules, String(v));
    }
  }
  return out;
}

// msgIn formats the message key of language l with args; a key that is
// not one comes back in brackets, as in Go.
export function msgIn(l, key, args) {
  const text = l.text[key];
  if (text === undefined) return '[' + key + ']';
  const id = l.code + '\n' + key;
  let segs = parsed.get(id);
  if (!segs) { segs = parseMsg(text); parsed.set(id, segs); }
  if (!l.rules) l.rules = new Intl.PluralRules(l.tag);
  return formatSegs(segs, args || {}, l.rules, '');
}
export const msg = (key, args) => msgIn(L, key, args);
export const nextLang = () => D.langs[(D.langs.indexOf(L) + 1) % D.langs.length];
// storyOf is an entry's or startup step's story in the page's language.
export const storyOf = (e) => e.story[L.code] || e.story[D.langs[0].code];

// $ is the page's element of that id: the timeline mounts into page.html's
// elements (and serve.html's, which has the same ones).
export const $ = (id) => document.getElementById(id);

// el makes an element with the attributes attrs and the children kids
// (nested lists flattened; null, undefined, false and '' left out). A
// string child is a text node: text from data never becomes markup.
export function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  if (attrs) for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  for (const k of kids.flat(Infinity)) {
    if (k !== null && k !== undefined && k !== false && k !== '') e.append(typeof k === 'number' ? String(k) : k);
  }
  return e;
}

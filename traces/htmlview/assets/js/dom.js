// $ is the page's element of that id: the timeline mounts into page.html's
// elements (and serve.html's, which has the same ones).
export const $ = (id) => document.getElementById(id);

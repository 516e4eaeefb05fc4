// The status line: what the last control did, or why it failed. Text
// only: an error may quote a file name or a YAML value from anyone.

export function createStatus(live, el = document.getElementById('live-status')) {
  return {
    say(text) {
      el.classList.remove('error');
      el.textContent = text;
    },
    fail(text) {
      live.lastError = text;
      el.classList.add('error');
      el.textContent = text;
    },
  };
}

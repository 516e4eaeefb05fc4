// The push channel: GET /api/events, Server-Sent Events. The server sends
// each page the latest snapshot, then the latest state, and drops older
// ones a slow page has not read; EventSource reconnects by itself, and a
// page that reconnects gets the latest of both again (catches up).

export function connectFeed({ onState, onSnapshot, onOpen, onError }) {
  const es = new EventSource('/api/events');
  es.addEventListener('open', () => onOpen && onOpen());
  es.addEventListener('error', () => onError && onError());
  es.addEventListener('state', (e) => {
    let st;
    try { st = JSON.parse(e.data); } catch (err) { return; }
    onState(st, Number(e.lastEventId));
  });
  es.addEventListener('snapshot', (e) => {
    let data;
    try { data = JSON.parse(e.data); } catch (err) { return; }
    onSnapshot(data, Number(e.lastEventId));
  });
  return () => es.close();
}

// window.kubeloomLive: what the live page knows, for tests and scripts
// (the export page's window.kubeloom is the timeline's).

export function createLiveState() {
  const live = {
    state: null, // the latest state event (serve's stateMsg)
    spans: 0, // spans of the latest state
    snapshotSeq: 0, // id of the latest snapshot event applied to the timeline
    snapshots: 0, // snapshots applied
    lastError: '', // the latest error the page showed
    canControl: false, // the server took this page's token
    connected: false,
    scenarios: [],
    templates: [],
  };
  window.kubeloomLive = live;
  return live;
}

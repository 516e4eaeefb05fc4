// The page of `kubeloom serve`: the export page's timeline, fed by the
// server's event stream, under the live controls (assets/js/live/).
import { createWords } from './live/words.js';
import { readToken, forgetToken } from './live/token.js';
import { createApi } from './live/api.js';
import { createLiveState } from './live/state.js';
import { createStatus } from './live/status.js';
import { connectFeed } from './live/feed.js';
import { createView } from './live/view.js';
import { mountControls } from './live/controls.js';
import { mountScenarios } from './live/scenarios.js';
import { mountActions } from './live/actions.js';
import { mountRecordings } from './live/recordings.js';

async function main() {
  const words = createWords();
  const live = createLiveState();
  const status = createStatus(live);
  const token = readToken();
  const api = createApi(token);
  if (token) {
    // The server says whether it takes this token (an old tab's is refused).
    const r = await api.post('/api/token');
    live.canControl = r.status === 204;
    if (!live.canControl) {
      forgetToken();
      status.fail(words.t('badToken'));
    }
  }
  const parts = { api, live, words, status };
  const controls = mountControls(parts);
  const actions = mountActions(parts);
  const recordings = mountRecordings(parts);
  const scenarios = mountScenarios({ ...parts, onStarted: () => actions.refresh() });
  const view = createView(live);
  status.say(words.t('connecting'));
  connectFeed({
    onOpen() {
      live.connected = true;
      if (!live.lastError) status.say('');
    },
    onError() {
      live.connected = false;
      status.fail(words.t('disconnected'));
    },
    onSnapshot(data, seq) { view.show(data, seq); },
    onState(st) {
      const first = !live.state;
      const changed = !live.state || live.state.mode !== st.mode || live.state.scenario !== st.scenario;
      live.state = st;
      live.spans = st.spans;
      controls.render();
      recordings.render();
      actions.refresh();
      if (first || changed) scenarios.render();
    },
  });
  await scenarios.load();
}

main();

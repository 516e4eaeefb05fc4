// The live page's timeline as kubeloom serve's page would make it, for
// live_browser_test.go: the page's data is the first snapshot, and the
// test feeds the newer ones to window.kubeloom.update.
import { createTimeline } from '../../assets/js/timeline.js';

createTimeline(document.getElementById('kubeloom-data').textContent, { live: true });
// The test makes a second timeline, as serve's page does for a recording
// the teacher opens.
window.kubeloomTest = { createTimeline };

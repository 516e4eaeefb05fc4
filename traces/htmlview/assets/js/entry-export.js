// The export page's entry (kubeloom export --format html): the data is in
// the page, #kubeloom-data, and the view is kept in the URL fragment.
import { createTimeline } from './timeline.js';

createTimeline(document.getElementById('kubeloom-data').textContent, { keepHash: true });

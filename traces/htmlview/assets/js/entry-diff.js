// The comparison page's entry (kubeloom diff --format html): the export
// page's timeline, whose data holds both recordings' instances in pairs
// (D.diff), with the panel of what differs and the rows' marks.
import { api } from './api.js';
import { laneMark } from './diffmarks.js';
import { showDiff } from './diffpanel.js';
import { langHooks } from './story.js';
import { createTimeline } from './timeline.js';

langHooks.push(showDiff);
api.laneMark = laneMark;
createTimeline(document.getElementById('kubeloom-data').textContent, { keepHash: true });

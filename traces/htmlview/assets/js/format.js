// Formatting: durations as Go prints them, the axis ticks' steps and
// labels, and numbers. Pure functions of their arguments.
function trimZeros(s) {
  return s.indexOf('.') < 0 ? s : s.replace(/0+$/, '').replace(/\.$/, '');
}

// fmtDur formats a duration in microseconds the way Go prints durations.
export function fmtDur(us) {
  if (us < 0) return '-' + fmtDur(-us);
  if (us === 0) return '0s';
  if (us < 1000) return us + 'µs';
  if (us < 1e6) return trimZeros((us / 1e3).toFixed(3)) + 'ms';
  if (us < 60e6) return trimZeros((us / 1e6).toFixed(6)) + 's';
  const h = Math.floor(us / 3600e6);
  const m = Math.floor((us % 3600e6) / 60e6);
  const s = trimZeros(((us % 60e6) / 1e6).toFixed(3));
  return (h ? h + 'h' : '') + ((h || m) ? m + 'm' : '') + s + 's';
}
export const fmtOff = (us) => '+' + fmtDur(us);
export const fmtNum = (n) => n.toLocaleString('en-US');

// The axis ticks: 1-2-5 steps up to half a second, then steps a clock
// reads: 1s, 5s, 10s, 15s, 30s, 1m, 5m, 10m, 15m, 30m, 1h… (never 50s,
// whose ticks fall at 1m40s and 2m30s).
const TICK_STEPS = [];
for (let p = 1; p < 1e6; p *= 10) TICK_STEPS.push(p, 2 * p, 5 * p);
TICK_STEPS.push(1e6, 5e6, 10e6, 15e6, 30e6, 60e6, 300e6, 600e6, 900e6, 1800e6,
  3600e6, 7200e6, 10800e6, 21600e6, 43200e6, 86400e6);

export function tickStep(minUs) {
  for (const s of TICK_STEPS) if (s >= minUs) return s;
  return Math.ceil(minUs / 86400e6) * 86400e6;
}

// fmtTick labels an axis tick at t for ticks step apart: 0, 30s, 1m,
// 1m30s, 1h5m; below a second, seconds with the decimals the step needs.
export function fmtTick(t, step) {
  if (t === 0) return '0';
  if (step >= 1e6) {
    let s = Math.round(t / 1e6);
    const h = Math.floor(s / 3600);
    s -= h * 3600;
    const m = Math.floor(s / 60);
    s -= m * 60;
    return (h ? h + 'h' : '') + (m ? m + 'm' : '') + (s ? s + 's' : '');
  }
  const d = Math.max(0, Math.ceil(-Math.log10(step / 1e6) - 1e-9));
  const m = Math.floor(t / 60e6);
  return (m ? m + 'm' : '') + trimZeros(((t - m * 60e6) / 1e6).toFixed(d)) + 's';
}


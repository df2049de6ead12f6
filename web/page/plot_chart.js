// The chart of `adlang plot` in the page (docs/playground.md): the command line draws it with
// gnuplot (viz/function_plot.hpp); the page draws the same table, which the WebAssembly module
// prints, as SVG. The table: a header `-- X<TAB>program<TAB>rd<TAB>central differences`, one
// line per sample (`undefined` where there is no value), then `-- undefined: REASON` lines.
// The chart has what gnuplot's has: the three curves, broken where a value is missing, and a
// cross on the axis at each point where the program is undefined.
'use strict';

// The table's samples: [{x, f, rd, central}] with null for `undefined`, and the reasons.
function parsePlotTable(text) {
  const samples = [], reasons = [];
  for (const line of text.split('\n')) {
    if (line.startsWith('-- undefined: ')) {
      reasons.push(line.slice('-- undefined: '.length));
      continue;
    }
    if (line === '' || line.startsWith('--')) continue;
    const cells = line.split('\t');
    if (cells.length !== 4) continue;
    const num = (s) => {
      const v = Number(s);
      return s === 'undefined' || !Number.isFinite(v) ? null : v;
    };
    samples.push({x: Number(cells[0]), f: num(cells[1]), rd: num(cells[2]), central: num(cells[3])});
  }
  return {samples, reasons};
}

// About `count` round tick values covering [lo, hi] (steps of 1, 2 or 5 times a power of 10).
// (By index, at most 4 * count + 1 of them: where step is below the spacing of doubles near lo,
// adding it would not move.)
function niceTicks(lo, hi, count) {
  const raw = (hi - lo) / count;
  const mag = Math.pow(10, Math.floor(Math.log10(raw)));
  const step = [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= raw) || 10 * mag;
  const first = Math.ceil(lo / step) * step;
  const ticks = [];
  for (let i = 0; i <= 4 * count; ++i) {
    const t = first + i * step;
    if (t > hi + step * 1e-9) break;
    if (ticks.length && t === ticks[ticks.length - 1]) break;
    ticks.push(Math.abs(t) < step * 1e-9 ? 0 : t);
  }
  return ticks;
}

// The smallest and largest of `values` (a loop: spreading 10^5 arguments into Math.min
// exceeds the engine's stack).
function extent(values) {
  let lo = Infinity, hi = -Infinity;
  for (const v of values) {
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  return [lo, hi];
}

function tickText(v) {
  return Math.abs(v) >= 1e5 || (v !== 0 && Math.abs(v) < 1e-3) ? v.toExponential(1)
                                                                 : String(Number(v.toPrecision(6)));
}

// An <svg class="plot"> element for the table `text` of `adlang plot --wrt wrt`.
function drawPlotChart(text, wrt, title) {
  const {samples} = parsePlotTable(text);
  const W = 720, H = 420, L = 70, R = 20, T = 34, B = 48;
  const NS = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(NS, 'svg');
  svg.setAttribute('class', 'plot');
  svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
  svg.setAttribute('width', W);
  svg.setAttribute('height', H);
  const add = (name, attrs, content) => {
    const e = document.createElementNS(NS, name);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    if (content !== undefined) e.textContent = content;
    svg.appendChild(e);
    return e;
  };
  add('rect', {x: 0, y: 0, width: W, height: H, fill: '#fff'});
  add('text', {x: W / 2, y: 20, 'text-anchor': 'middle'}, title);
  if (samples.length === 0) return svg;

  let [xlo, xhi] = extent(samples.map((s) => s.x));
  if (xlo === xhi) { xlo -= 1; xhi += 1; }
  const ys = [];
  for (const s of samples) for (const k of ['f', 'rd', 'central']) if (s[k] !== null) ys.push(s[k]);
  let [ylo, yhi] = ys.length ? extent(ys) : [-1, 1];
  if (ylo === yhi) { ylo -= 1; yhi += 1; }
  const pad = (yhi - ylo) * 0.05;
  ylo -= pad;
  yhi += pad;
  const px = (x) => L + (x - xlo) / (xhi - xlo) * (W - L - R);
  const py = (y) => H - B - (y - ylo) / (yhi - ylo) * (H - T - B);

  for (const t of niceTicks(xlo, xhi, 8)) {
    add('line', {class: 'grid', x1: px(t), x2: px(t), y1: T, y2: H - B});
    add('text', {x: px(t), y: H - B + 16, 'text-anchor': 'middle'}, tickText(t));
  }
  for (const t of niceTicks(ylo, yhi, 6)) {
    add('line', {class: 'grid', x1: L, x2: W - R, y1: py(t), y2: py(t)});
    add('text', {x: L - 6, y: py(t) + 4, 'text-anchor': 'end'}, tickText(t));
  }
  add('rect', {class: 'axis', x: L, y: T, width: W - L - R, height: H - T - B, fill: 'none'});
  if (ylo < 0 && yhi > 0) add('line', {class: 'axis', x1: L, x2: W - R, y1: py(0), y2: py(0)});
  add('text', {x: (L + W - R) / 2, y: H - 10, 'text-anchor': 'middle'}, wrt);

  // Each curve as one path, with a new piece after every missing value.
  const curves = [['f', 'program'], ['rd', `1.rd_a(${wrt}. M)`], ['central', 'central differences']];
  for (const [key] of curves) {
    let d = '', pen = false;
    for (const s of samples) {
      if (s[key] === null) { pen = false; continue; }
      d += `${pen ? 'L' : 'M'}${px(s.x).toFixed(2)},${py(s[key]).toFixed(2)}`;
      pen = true;
    }
    if (d) add('path', {class: key, d});
  }
  // The points where the program is undefined: a cross on the x axis (or the frame's bottom).
  const axisY = ylo < 0 && yhi > 0 ? py(0) : H - B;
  for (const s of samples) {
    if (s.f !== null) continue;
    const x = px(s.x);
    add('path', {class: 'undefined', d: `M${x - 4},${axisY - 4}L${x + 4},${axisY + 4}` +
                                         `M${x - 4},${axisY + 4}L${x + 4},${axisY - 4}`});
  }
  // The legend.
  const legend = [...curves.map(([key, name]) => [key, name]), ['undefined', 'undefined']];
  legend.forEach(([key, name], i) => {
    const y = T + 14 + i * 16, x = W - R - 190;
    if (key === 'undefined') {
      add('path', {class: 'undefined', d: `M${x + 10},${y - 8}L${x + 18},${y}M${x + 10},${y}L${x + 18},${y - 8}`});
    } else {
      add('line', {class: key, x1: x, x2: x + 28, y1: y - 4, y2: y - 4});
    }
    add('text', {x: x + 36, y}, name);
  });
  return svg;
}

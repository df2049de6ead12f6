// The playground page (docs/playground.md): the editor, the example menu, the buttons, and the
// outputs of the commands, which run in worker.js.
'use strict';

const $ = (id) => document.getElementById(id);
const editor = $('editor'), envBox = $('env'), wrtBox = $('wrt');
const buttons = ['run', 'trace', 'diff', 'den', 'plot', 'check'].map($);

// --- The worker, restarted by Stop -------------------------------------------------------
// `loading`: the worker has not said it is ready; the buttons stay disabled until it has (a
// command stopped during the loading must not enable them early).
let worker = null, pending = null, nextId = 1, loading = false;

function startWorker() {
  worker = new Worker('worker.js');
  loading = true;
  setBusy(true, 'loading…');
  worker.onmessage = (e) => {
    if (e.target !== worker) return;  // a worker Stop has terminated
    const m = e.data;
    if ('ready' in m) {
      if (!m.ready) {  // the buttons stay disabled: this worker answers nothing
        $('status').textContent = 'the WebAssembly module failed to load: ' + m.error;
        return;
      }
      loading = false;
      fillProperties(m.properties);
      setBusy(false, 'ready');
      return;
    }
    if (m.progress) {
      if (pending && pending.id === m.id && pending.onProgress) pending.onProgress(m.progress);
      return;
    }
    if (pending && pending.id === m.id) {
      const p = pending;
      pending = null;
      // The module's state is not to be trusted after an error it did not report itself
      // (worker.js): a fresh worker replaces it.
      if (m.restart) {
        worker.terminate();
        startWorker();
      }
      p.resolve(m);
    }
  };
  worker.onerror = (e) => {
    if (e.target !== worker) return;
    loading = false;
    if (pending) { const p = pending; pending = null; p.reject(new Error(e.message)); }
    setBusy(false, 'error: ' + e.message);
  };
}

// A command on the editor's program (web/playground.hpp, PlaygroundRequest); `extra` sets
// wrt, dir, env, from, to, samples.
function call(command, extra = {}) {
  const request = {command, source: editor.value, env: envBox.value,
                   precision: $('precision').value, wrt: '', dir: '', from: -1, to: 1,
                   samples: 201, ...extra};
  return post({request});
}

function post(message, onProgress) {
  return new Promise((resolve, reject) => {
    pending = {id: nextId++, resolve, reject, onProgress};
    worker.postMessage({id: pending.id, ...message});
  });
}

function setBusy(busy, text) {
  for (const b of buttons) b.disabled = busy || loading;
  $('stop').disabled = !busy;
  $('status').textContent = text;
}

$('stop').onclick = () => {
  $('check-progress').value = 0;
  $('check-status').textContent = '';
  worker.terminate();
  if (pending) { const p = pending; pending = null; p.reject(new Error('stopped')); }
  startWorker();
};

// --- Outputs --------------------------------------------------------------------------------
function escapeHtml(s) {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

// The diagnostics with each location playground.ad:LINE:COL a link that puts the cursor there.
function showDiagnostics(text) {
  const html = escapeHtml(text).replace(/playground\.ad:(\d+):(\d+)/g,
      (all, line, col) => `<a class="loc" data-line="${line}" data-col="${col}">${all}</a>`);
  $('stderr').innerHTML = html;
  for (const a of $('stderr').querySelectorAll('a.loc'))
    a.onclick = () => moveCursor(Number(a.dataset.line), Number(a.dataset.col));
}

function moveCursor(line, col) {
  const lines = editor.value.split('\n');
  let pos = 0;
  for (let i = 0; i < line - 1 && i < lines.length; ++i) pos += lines[i].length + 1;
  pos += Math.max(0, col - 1);
  editor.focus();
  editor.setSelectionRange(pos, pos);
  // Scroll the line into view: the textarea's line height times the line number.
  const lineHeight = parseFloat(getComputedStyle(editor).lineHeight) || 18;
  editor.scrollTop = Math.max(0, (line - 5) * lineHeight);
}

function show(title, r) {
  $('output-title').textContent = title;
  $('stdout').textContent = r.stdout;
  showDiagnostics(r.stderr);
  $('exit').textContent = 'exit code ' + r.exit_code;
  $('exit').dataset.code = String(r.exit_code);
}

function clearPicture() {
  $('picture').replaceChildren();
  $('picture-title').hidden = true;
}

// The trace graph: the DOT text of `adlang trace --format dot` drawn by Graphviz (wasm).
let vizReady = null;
async function drawTrace(wrt, dir) {
  const r = await call('trace-dot', {wrt, dir});
  if (r.exit_code !== 0) return;
  vizReady = vizReady || Viz.instance();
  const viz = await vizReady;
  const svg = viz.renderSVGElement(r.stdout);
  $('picture').replaceChildren(svg);
  $('picture').classList.add('fit');
  $('picture-title').textContent =
      (wrt ? `Trace graph: values and adjoints with respect to ${wrt}` : 'Trace graph') +
      ' (click to zoom)';
  $('picture-title').hidden = false;
}

// Runs `work` with the buttons disabled and Stop enabled, and says how long it took.
async function busy(name, work) {
  clearPicture();
  setBusy(true, name + '…');
  const started = performance.now();
  try {
    await work();
    setBusy(false, `${name}: ${Math.round(performance.now() - started)} ms`);
  } catch (e) {
    setBusy(false, e.message === 'stopped' ? 'stopped' : 'error: ' + e.message);
  }
}

function command(name, title) {
  return busy(name, async () => {
    const extra = name === 'diff' ? {wrt: wrtBox.value, dir: $('dir').value.trim()} : {};
    const r = await call(name, extra);
    show(title, r);
    if (r.exit_code === 0 && (name === 'trace' || name === 'diff'))
      await drawTrace(extra.wrt || '', extra.dir || '');
  });
}

// A usage error of the page's own, shown as the CLI shows one.
function usage(title, message) {
  show(title, {stdout: '', exit_code: 2, stderr: 'adlang: error: ' + message + '\n'});
}

$('picture').onclick = () => $('picture').classList.toggle('fit');

$('run').onclick = () => command('run', 'Value (adlang run)');
$('trace').onclick = () => command('trace', 'Trace term (adlang trace)');
$('diff').onclick = () => {
  if (!wrtBox.value) {
    usage('Derivative (adlang diff)', 'diff needs an input to differentiate by: give one in the inputs');
    return;
  }
  command('diff', `Derivative with respect to ${wrtBox.value} (adlang diff)`);
};
$('den').onclick = () => command('den', 'Denotation (adlang den)');

// Plot: `adlang plot --wrt X --from A --to B --samples N` (the samples, computed by the
// module) drawn by plot_chart.js. The plotted input's own line of the inputs is left out: plot
// gives it its values.
$('plot').onclick = () => {
  const wrt = wrtBox.value, title = `Plot against ${wrt} (adlang plot)`;
  if (!wrt) {
    usage(title, 'plot needs a real input for the x axis: give one in the inputs');
    return;
  }
  const env = envBox.value.split('\n').filter((l) => l.split('=')[0].trim() !== wrt).join('\n');
  const number = (id) => ($(id).value.trim() === '' ? NaN : Number($(id).value));
  const from = number('plot-from'), to = number('plot-to'), samples = number('plot-samples');
  if (!Number.isFinite(from) || !Number.isFinite(to) || !(from < to) ||
      !Number.isInteger(samples) || samples < 2 || samples > 100000) {
    usage(title, 'plot needs --from < --to and 2 to 100000 samples');
    return;
  }
  busy('plot', async () => {
    const r = await call('plot', {wrt, env, from, to, samples});
    show(title, r);
    if (r.exit_code !== 0) return;
    $('picture').replaceChildren(drawPlotChart(r.stdout, wrt, `playground.ad as a function of ${wrt}`));
    $('picture').classList.add('fit');
    $('picture-title').textContent = 'Plot: the program, its derivative by rd, central differences';
    $('picture-title').hidden = false;
  });
};

// Check: `adlang check [--property P] --count N --seed S`, or `adlang check playground.ad`,
// with a progress bar over all the programs of the run.
let propertyNames = [];
function fillProperties(names) {
  if (propertyNames.length) return;
  propertyNames = names;
  for (const n of names) $('check-property').add(new Option(n, n));
}

$('check').onclick = () => {
  const property = $('check-property').value, onEditor = $('check-on').value === 'editor';
  const count = Number($('check-count').value), seed = Number($('check-seed').value);
  const title = onEditor ? 'Check of the editor\'s program (adlang check playground.ad)'
                         : `Check on ${count} random programs (adlang check)`;
  if (!onEditor && (!Number.isInteger(count) || count < 1 || count > 100000 ||
                    !Number.isInteger(seed) || seed < 0 || seed > 4294967295)) {
    usage(title, 'Check needs 1 to 100000 programs and a seed from 0 to 4294967295');
    return;
  }
  const names = property ? [property] : propertyNames;
  const bar = $('check-progress');
  bar.max = onEditor ? 1 : names.length * count;
  bar.value = 0;
  $('check-status').textContent = '';
  busy('check', async () => {
    const r = await post({check: {property, count: onEditor ? 1 : count, seed: onEditor ? 1 : seed,
                                  precision: $('precision').value, editor: onEditor,
                                  source: onEditor ? editor.value : '',
                                  env: onEditor ? envBox.value : ''}},
                         (p) => {
                           const i = Math.max(0, names.indexOf(p.property));
                           bar.value = i * count + p.done;
                           $('check-status').textContent = `${p.property}: ${p.done}/${p.total}`;
                         });
    bar.value = bar.max;
    $('check-status').textContent = r.exit_code === 0 ? 'passed' : 'exit code ' + r.exit_code;
    show(title, r);
  });
};

// --- Inputs and examples --------------------------------------------------------------------
function updateWrt() {
  const old = wrtBox.value;
  const names = envBox.value.split('\n').map((l) => l.trim().split('=')[0].trim())
      .filter((n) => /^[A-Za-z_][A-Za-z0-9_']*$/.test(n));
  wrtBox.replaceChildren(...names.map((n) => new Option(n, n)));
  if (names.includes(old)) wrtBox.value = old;
}
envBox.addEventListener('input', updateWrt);

// The --env values of an example's first documented run (`-- $ adlang ... --env x=0.7`).
function documentedEnv(text) {
  const run = text.split('\n').find((l) => /^--\s*\$ adlang /.test(l));
  if (!run) return [];
  const env = [];
  for (const m of run.matchAll(/--env[ =](?:'([^']*)'|"([^"]*)"|(\S+))/g))
    env.push(m[1] ?? m[2] ?? m[3]);
  return env;
}

for (const ex of ADLANG_EXAMPLES) $('examples').add(new Option(ex.name, ex.name));
$('examples').onchange = () => {
  const ex = ADLANG_EXAMPLES.find((e) => e.name === $('examples').value);
  if (!ex) return;
  editor.value = ex.text;
  envBox.value = documentedEnv(ex.text).join('\n');
  updateWrt();
  $('stdout').textContent = '';
  $('stderr').textContent = '';
  $('exit').textContent = '';
  clearPicture();
};

$('examples').value = 'syntax_tour.ad';
$('examples').onchange();
startWorker();

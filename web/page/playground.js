// The playground page (docs/playground.md): the editor, the example menu, the buttons, and the
// outputs of the commands, which run in worker.js.
'use strict';

const $ = (id) => document.getElementById(id);
const envBox = $('env'), wrtBox = $('wrt');
const buttons = ['run', 'trace', 'diff', 'den', 'plot', 'check'].map($);

// The editor: CodeMirror 5 with line numbers and the adlang mode (adlang_mode.js); Ctrl-Enter
// (Cmd-Enter on a Mac) runs, here and in the other fields of the page. `window.adlangEditor`
// is the browser test's handle on it.
const runKey = () => { if (!$('run').disabled) $('run').click(); };
const editor = CodeMirror.fromTextArea($('editor'), {
  mode: 'adlang', lineNumbers: true, indentUnit: 2, tabSize: 2, smartIndent: false,
  extraKeys: {'Ctrl-Enter': runKey, 'Cmd-Enter': runKey,
              Tab: (cm) => cm.execCommand('insertSoftTab')},
});
window.adlangEditor = editor;
document.addEventListener('keydown', (e) => {
  if ((e.ctrlKey || e.metaKey) && e.key === 'Enter' && !e.target.closest('.CodeMirror')) {
    e.preventDefault();
    runKey();
  }
});

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
      defaultFuel = m.fuel;
      showDefaultFuel();
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
  const request = {command, source: editor.getValue(), env: envBox.value,
                   precision: $('precision').value, wrt: '', dir: '', from: -1, to: 1,
                   samples: 201, fuel: fuel(), ...extra};
  return post({request});
}

// The Fuel setting (--fuel): a whole number of calls, or -1 (empty) for the CLI's default,
// which depends on the precision (default_fuel, driver/command_options.hpp; the worker tells
// them) and is shown as the field's placeholder. NaN when the field holds something else.
let defaultFuel = {};
function fuel() {
  const text = $('fuel').value.trim();
  if (text === '') return -1;
  const n = Number(text);
  return Number.isSafeInteger(n) && n >= 0 ? n : NaN;
}
function showDefaultFuel() {
  const n = defaultFuel[$('precision').value];
  $('fuel').placeholder = n === undefined ? '' : String(n);
}
$('precision').addEventListener('change', showDefaultFuel);
// A usage error when the Fuel setting is not a number of calls; true if so.
function badFuel(title) {
  if (!Number.isNaN(fuel())) return false;
  usage(title, 'Fuel needs a whole number of calls (empty: the default for the precision)');
  return true;
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

// Stop: the worker is terminated and a fresh one loaded. The outputs of the stopped command
// were cleared when it started; a stopped Check shows the table of the counts its worker last
// reported (checkSoFar) and how many programs they cover.
$('stop').onclick = () => {
  worker.terminate();
  const stoppedCheck = checkSoFar;
  checkSoFar = null;
  $('check-progress').value = 0;
  if (pending) { const p = pending; pending = null; p.reject(new Error('stopped')); }
  $('exit').textContent = 'stopped';
  if (stoppedCheck) {
    const tried = [...stoppedCheck.values()].reduce((n, p) => n + p.tried, 0);
    $('stdout').textContent = checkTable([...stoppedCheck.values()]) +
                              `stopped after ${tried} programs\n`;
    $('stdout').classList.add('table');
    $('check-status').textContent = `stopped after ${tried} programs`;
    fitTable();
  }
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
  editor.focus();
  editor.setCursor({line: line - 1, ch: Math.max(0, col - 1)});  // scrolled into view
}

function show(title, r, table = false) {
  $('output-title').textContent = title;
  $('stdout').textContent = r.stdout;
  $('stdout').classList.toggle('table', table);
  fitTable();
  showDiagnostics(r.stderr);
  // The exit code, and the failure's name as a notebook shows it (Undefined, CompileError, ...).
  $('exit').textContent = 'exit code ' + r.exit_code + (r.error ? ' (' + r.error + ')' : '');
  $('exit').dataset.code = String(r.exit_code);
  $('exit').dataset.error = r.error || '';
}

function clearPicture() {
  $('picture').replaceChildren();
  $('picture-title').hidden = true;
}

// What a command shows is replaced as soon as the next one starts (or an example is chosen):
// no result of an earlier command stays on the screen while another runs.
function clearOutputs(title = 'Output') {
  $('output-title').textContent = title;
  $('stdout').textContent = '';
  $('stdout').classList.remove('table');
  $('stderr').textContent = '';
  $('exit').textContent = '';
  $('exit').dataset.code = '';
  $('exit').dataset.error = '';
  $('check-status').textContent = '';
  $('check-progress').value = 0;
  clearPicture();
}

// Check's table (`adlang check`'s columns, driver/check_command.cpp) stays one line a row: its
// font is made smaller until the widest row fits the column (at least 10px; narrower columns
// scroll sideways), never wrapped.
function fitTable() {
  const out = $('stdout');
  out.style.fontSize = '';
  if (!out.classList.contains('table') || out.clientWidth === 0) return;
  let size = parseFloat(getComputedStyle(out).fontSize);
  while (out.scrollWidth > out.clientWidth && size > 10) {
    size = Math.max(10, size - 0.5);
    out.style.fontSize = size + 'px';
  }
}
window.addEventListener('resize', fitTable);

// The rows of `adlang check`'s table for the counts `rows` ({property, tried, passed, failed,
// both_undefined, discarded, seconds}), as driver/check_command.cpp prints them.
function checkTable(rows) {
  const pad = (s, w) => String(s).padEnd(w), rpad = (s, w) => String(s).padStart(w);
  let t = pad('property', 22) + rpad('tried', 8) + rpad('passed', 8) + rpad('failed', 8) +
          rpad('both-undef', 12) + rpad('discarded', 11) + rpad('prog/s', 9) + '\n';
  for (const p of rows) {
    t += pad(p.property, 22) + rpad(p.tried, 8) + rpad(p.passed, 8) + rpad(p.failed, 8) +
         rpad(p.both_undefined, 12) + rpad(p.discarded, 11) +
         rpad((p.seconds > 0 ? p.tried / p.seconds : 0).toFixed(0), 9) + '\n';
  }
  return t;
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
async function busy(name, title, work) {
  clearOutputs(title);
  checkSoFar = null;  // a Check's work starts its own
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
  if (badFuel(title)) return;
  return busy(name, title, async () => {
    const extra = name === 'diff' ? {wrt: wrtBox.value, dir: $('dir').value.trim()} : {};
    const r = await call(name, extra);
    show(title, r);
    if (r.exit_code === 0 && (name === 'trace' || name === 'diff'))
      await drawTrace(extra.wrt || '', extra.dir || '');
  });
}

// A usage error of the page's own, shown as the CLI shows one.
function usage(title, message) {
  clearOutputs(title);
  show(title, {stdout: '', exit_code: 2, stderr: 'adlang: error: ' + message + '\n',
               error: 'UsageError'});
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
  if (badFuel(title)) return;
  busy('plot', title, async () => {
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
// `checkSoFar`: while a Check of random programs runs, each property's counts as the worker
// last reported them (a Map by property, in the order run), for the table Stop shows.
let propertyNames = [], checkSoFar = null, fragmentProperty = null;
function fillProperties(names) {
  if (propertyNames.length) return;
  propertyNames = names;
  for (const n of names) $('check-property').add(new Option(n, n));
  if (fragmentProperty !== null && names.includes(fragmentProperty))
    $('check-property').value = fragmentProperty;  // from the address's fragment, below
  fragmentProperty = null;
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
  busy('check', title, async () => {
    bar.max = onEditor ? 1 : names.length * count;
    checkSoFar = onEditor ? null : new Map();
    const r = await post({check: {property, count: onEditor ? 1 : count, seed: onEditor ? 1 : seed,
                                  precision: $('precision').value, editor: onEditor,
                                  source: onEditor ? editor.getValue() : '',
                                  env: onEditor ? envBox.value : ''}},
                         (p) => {
                           // The properties take turns, a chunk of programs each: the bar is
                           // the sum of their counts.
                           if (checkSoFar) checkSoFar.set(p.property, p);
                           bar.value = checkSoFar
                               ? [...checkSoFar.values()].reduce((n, q) => n + q.tried, 0)
                               : p.tried;
                           $('check-status').textContent = `${p.property}: ${p.tried}/${p.total}`;
                         });
    checkSoFar = null;
    bar.value = bar.max;
    $('check-status').textContent = r.exit_code === 0 ? 'passed' : 'exit code ' + r.exit_code;
    show(title, r, !onEditor);
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

// The menu: the examples of examples/, then the lessons of examples/teaching/ in their order
// ("-- Lesson N: title" on their first line, docs/teaching.md), each group an <optgroup>.
const lessonTitle = (ex) => (ex.text.match(/^-- Lesson (\d+): (.*?)\.?\n/) || []).slice(1);
{
  const examples = document.createElement('optgroup'), lessons = document.createElement('optgroup');
  examples.label = 'Examples (examples/)';
  lessons.label = 'Lessons (examples/teaching/)';
  for (const ex of ADLANG_EXAMPLES.filter((e) => e.group === 'examples'))
    examples.append(new Option(ex.name, ex.name));
  const byLesson = ADLANG_EXAMPLES.filter((e) => e.group === 'teaching')
      .sort((a, b) => Number(lessonTitle(a)[0] || 99) - Number(lessonTitle(b)[0] || 99));
  for (const ex of byLesson) {
    const [n, title] = lessonTitle(ex);
    lessons.append(new Option(n ? `Lesson ${n}: ${title}` : ex.name, ex.name));
  }
  $('examples').append(examples, lessons);
}
const ownProgram = $('examples').options[0];
const exampleNamed = (name) => ADLANG_EXAMPLES.find((e) => e.name === name);

// The menu names an example only while the editor holds it unchanged: an edit turns it into
// "NAME (edited)", the entry for your own program (choosing the example again restores it).
function showExample(name) {
  $('examples').value = name;
  ownProgram.textContent = '(your own program)';
}
editor.on('change', () => {
  const ex = exampleNamed($('examples').value);
  if (ex && editor.getValue() !== ex.text) {
    $('examples').value = '';
    ownProgram.textContent = `${ex.name} (edited)`;
  }
});

$('examples').onchange = () => {
  const ex = exampleNamed($('examples').value);
  if (!ex) return;
  showExample(ex.name);
  editor.setValue(ex.text);
  envBox.value = documentedEnv(ex.text).join('\n');
  updateWrt();
  clearOutputs();
  saveFragment();
};

// --- The address's fragment -----------------------------------------------------------------
// The program, the inputs and the settings that change what the commands compute are kept in
// the page's address after '#' (URLSearchParams: code=...&env=...; a setting only when it is
// not its default), so a copied link reproduces the page; loading an address with a fragment
// (or pasting one) restores them. Share writes it at once and copies the link.
const fragmentFields = {env: 'env', precision: 'precision', fuel: 'fuel', wrt: 'wrt', dir: 'dir',
                        from: 'plot-from', to: 'plot-to', samples: 'plot-samples',
                        property: 'check-property', on: 'check-on', count: 'check-count',
                        seed: 'check-seed'};
const defaultValue = (el) => el.tagName === 'SELECT'
    ? ([...el.options].find((o) => o.defaultSelected) || el.options[0] || {value: ''}).value
    : el.defaultValue;

let writtenFragment = null, fragmentTimer = null;
function fragment() {
  const params = new URLSearchParams({code: editor.getValue()});
  for (const [key, id] of Object.entries(fragmentFields)) {
    const el = $(id);
    if (el.value !== defaultValue(el)) params.set(key, el.value);
  }
  return '#' + params.toString();
}
function saveFragment() {
  clearTimeout(fragmentTimer);
  writtenFragment = fragment();
  history.replaceState(null, '', writtenFragment);
}
// Typing saves it a moment later, not at every key (and the link Share showed is no longer it).
function saveFragmentSoon() {
  $('share-status').textContent = '';
  clearTimeout(fragmentTimer);
  fragmentTimer = setTimeout(saveFragment, 300);
}
editor.on('change', saveFragmentSoon);
for (const id of Object.values(fragmentFields)) {
  $(id).addEventListener('input', saveFragmentSoon);
  $(id).addEventListener('change', saveFragmentSoon);
}

// Restores the page from the address's fragment; false when it has no program.
function loadFragment() {
  const params = new URLSearchParams(location.hash.slice(1));
  if (!params.has('code')) return false;
  const code = params.get('code');
  const ex = ADLANG_EXAMPLES.find((e) => e.text === code);
  showExample(ex ? ex.name : '');
  editor.setValue(code);
  envBox.value = params.get('env') ?? '';
  updateWrt();
  for (const [key, id] of Object.entries(fragmentFields)) {
    if (key === 'env') continue;
    const el = $(id), value = params.get(key) ?? defaultValue(el);
    el.value = value;
    // The property menu is filled when the module has loaded (fillProperties).
    if (key === 'property' && el.value !== value) fragmentProperty = value;
  }
  showDefaultFuel();
  clearOutputs();
  writtenFragment = location.hash;
  return true;
}
window.addEventListener('hashchange', () => {
  if (location.hash !== writtenFragment) loadFragment();
});

$('share').onclick = async () => {
  saveFragment();
  const link = $('share-status');
  link.replaceChildren('link: ');
  const a = document.createElement('a');
  a.id = 'share-link';
  a.href = location.href;
  a.textContent = 'this page';
  link.append(a);
  try {
    await navigator.clipboard.writeText(location.href);
    link.append(' (copied)');
  } catch (e) {
    link.append(' (copy it from the address bar)');
  }
};

if (!loadFragment()) {
  $('examples').value = 'syntax_tour.ad';
  $('examples').onchange();
}
startWorker();

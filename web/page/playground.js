// The playground page (docs/playground.md): the editor, the example menu, the buttons, and the
// outputs of the commands, which run in worker.js.
'use strict';

const $ = (id) => document.getElementById(id);
const editor = $('editor'), envBox = $('env'), wrtBox = $('wrt');
const buttons = ['run', 'trace', 'diff', 'den'].map($);

// --- The worker, restarted by Stop -------------------------------------------------------
let worker = null, pending = null, nextId = 1;

function startWorker() {
  worker = new Worker('worker.js');
  setBusy(true, 'loading…');
  worker.onmessage = (e) => {
    const m = e.data;
    if ('ready' in m) {
      setBusy(false, m.ready ? 'ready' : 'the WebAssembly module failed to load: ' + m.error);
      return;
    }
    if (pending && pending.id === m.id) {
      const p = pending;
      pending = null;
      p.resolve(m);
    }
  };
  worker.onerror = (e) => {
    if (pending) { const p = pending; pending = null; p.reject(new Error(e.message)); }
    setBusy(false, 'error: ' + e.message);
  };
}

function call(command, wrt) {
  return new Promise((resolve, reject) => {
    pending = {id: nextId++, resolve, reject};
    worker.postMessage({id: pending.id, command, source: editor.value, env: envBox.value,
                        precision: $('precision').value, wrt: wrt || ''});
  });
}

function setBusy(busy, text) {
  for (const b of buttons) b.disabled = busy;
  $('stop').disabled = !busy;
  $('status').textContent = text;
}

$('stop').onclick = () => {
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
async function drawTrace(wrt) {
  const r = await call('trace-dot', wrt);
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

async function command(name, title) {
  clearPicture();
  setBusy(true, name + '…');
  const started = performance.now();
  try {
    const wrt = name === 'diff' ? wrtBox.value : '';
    const r = await call(name, wrt);
    show(title, r);
    if (r.exit_code === 0 && (name === 'trace' || name === 'diff')) await drawTrace(wrt);
    setBusy(false, `${name}: ${Math.round(performance.now() - started)} ms`);
  } catch (e) {
    setBusy(false, e.message === 'stopped' ? 'stopped' : 'error: ' + e.message);
  }
}

$('picture').onclick = () => $('picture').classList.toggle('fit');

$('run').onclick = () => command('run', 'Value (adlang run)');
$('trace').onclick = () => command('trace', 'Trace term (adlang trace)');
$('diff').onclick = () => {
  if (!wrtBox.value) {
    show('Derivative (adlang diff)', {stdout: '', exit_code: 2,
        stderr: 'adlang: error: diff needs an input to differentiate by: give one in the inputs\n'});
    return;
  }
  command('diff', `Derivative with respect to ${wrtBox.value} (adlang diff)`);
};
$('den').onclick = () => command('den', 'Denotation (adlang den)');

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

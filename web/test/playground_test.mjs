// The playground in a real browser (docs/playground.md): headless Chromium (Debian's
// `chromium`, driven by npm's playwright-core) loads the built page from `adlang serve`,
// runs the syntax tour and two examples through the menu and the buttons, and compares the
// page's outputs with the native `adlang run` / `adlang diff` on the same programs; a syntax
// error shows its caret and a location that moves the editor's cursor; screenshots are written
// (FILE.png after the syntax error, FILE-diff.png after Diff with its trace graph).
//
// node playground_test.mjs --adlang BIN --page DIR --screenshot FILE.png
// Fails (never skips) with the missing tool named when something is absent.
import {spawn, spawnSync} from 'node:child_process';
import {existsSync, mkdtempSync, writeFileSync, rmSync} from 'node:fs';
import {createRequire} from 'node:module';
import {tmpdir} from 'node:os';
import {join, resolve} from 'node:path';
import {fileURLToPath} from 'node:url';

const args = {};
for (let i = 2; i < process.argv.length; i += 2) args[process.argv[i].slice(2)] = process.argv[i + 1];
const chromiumPath = process.env.ADLANG_CHROMIUM || '/usr/bin/chromium';

function fail(message) {
  console.error('FAIL: ' + message);
  process.exit(1);
}

let failures = 0;
function check(ok, what, detail) {
  console.log((ok ? 'ok   ' : 'FAIL ') + what);
  if (!ok) {
    ++failures;
    if (detail) console.log(detail);
  }
}

// --- What the test needs ----------------------------------------------------------------------
for (const k of ['adlang', 'page', 'screenshot'])
  if (!args[k]) fail(`missing --${k}`);
args.adlang = resolve(args.adlang);
if (!existsSync(args.adlang)) fail(`${args.adlang} not found: build adlang first`);
if (!existsSync(chromiumPath))
  fail(`${chromiumPath} not found: install Debian's chromium (scripts/install-deps.sh --web)`);
let chromium;
try {
  const here = fileURLToPath(new URL('.', import.meta.url));
  chromium = createRequire(join(here, 'package.json'))('playwright-core').chromium;
} catch (e) {
  fail('npm package playwright-core is missing in web/test/node_modules: run ' +
       'scripts/install-deps.sh --web (npm ci in web/test)');
}
for (const f of ['index.html', 'adlang_playground.wasm', 'adlang_playground.js', 'viz-global.js'])
  if (!existsSync(join(args.page, f)))
    fail(`${join(args.page, f)} is missing: the playground is not built (scripts/build-web.sh)`);

// --- The native answers ----------------------------------------------------------------------
const scratch = mkdtempSync(join(tmpdir(), 'adlang-playground-'));
function native(command, source, env, extra = []) {
  const file = join(scratch, 'playground.ad');
  writeFileSync(file, source);
  const argv = [command, file, ...env.flatMap((e) => ['--env', e]), ...extra];
  const r = spawnSync(args.adlang, argv, {encoding: 'utf8', cwd: scratch});
  return {stdout: r.stdout, stderr: r.stderr.split(file).join('playground.ad'), code: r.status};
}

// --- The server ------------------------------------------------------------------------------
const server = spawn(args.adlang, ['serve', '--port', '0', '--dir', args.page],
                     {stdio: ['ignore', 'pipe', 'inherit']});
const url = await new Promise((resolve, reject) => {
  let text = '';
  server.stdout.on('data', (d) => {
    text += d;
    const m = text.match(/http:\/\/127\.0\.0\.1:\d+\//);
    if (m) resolve(m[0]);
  });
  server.on('exit', (code) => reject(new Error(`adlang serve exited with ${code}`)));
  setTimeout(() => reject(new Error('adlang serve printed no address in 10 s')), 10000);
}).catch((e) => { fail(e.message); });

const browser = await chromium.launch({
  executablePath: chromiumPath,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
         '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
try {
  const page = await browser.newPage({viewport: {width: 1400, height: 1000}});
  const pageErrors = [];
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  await page.goto(url);
  await page.waitForFunction(() => document.getElementById('status').textContent === 'ready',
                             null, {timeout: 30000});

  // Runs `button` and returns what the page shows.
  async function press(button) {
    await page.evaluate(() => { document.getElementById('exit').dataset.code = ''; });
    await page.click('#' + button);
    await page.waitForFunction(() => document.getElementById('exit').dataset.code !== '' &&
                                     !document.getElementById('run').disabled,
                               null, {timeout: 60000});
    return page.evaluate(() => ({
      stdout: document.getElementById('stdout').textContent,
      stderr: document.getElementById('stderr').textContent,
      code: Number(document.getElementById('exit').dataset.code),
      env: document.getElementById('env').value.split('\n').filter((l) => l.trim() !== ''),
      source: document.getElementById('editor').value,
      svg: document.querySelectorAll('#picture svg g.node').length,
    }));
  }

  // The syntax tour and two examples through the menu and Run, against `adlang run`.
  for (const example of ['syntax_tour.ad', 'nested_rd.ad', 'dot_gradient.ad']) {
    await page.selectOption('#examples', example);
    const shown = await press('run');
    const want = native('run', shown.source, shown.env);
    check(shown.code === 0 && shown.stdout === want.stdout && shown.code === want.code,
          `Run ${example} (env ${JSON.stringify(shown.env)}) prints what adlang run prints`,
          `page: ${JSON.stringify(shown)}\nadlang run: ${JSON.stringify(want)}`);
  }

  // Diff on the factorial: the derivative as adlang diff prints it, and the trace graph.
  await page.selectOption('#examples', 'fact.ad');
  const wrt = await page.$eval('#wrt', (s) => s.value);
  const diffShown = await press('diff');
  const diffWant = native('diff', diffShown.source, diffShown.env, ['--wrt', wrt]);
  check(wrt !== '' && diffShown.code === 0 && diffShown.stdout === diffWant.stdout,
        `Diff fact.ad with respect to ${wrt} prints what adlang diff prints`,
        `page: ${JSON.stringify(diffShown)}\nadlang diff: ${JSON.stringify(diffWant)}`);
  await page.waitForSelector('#picture svg', {timeout: 30000});
  const nodes = await page.$$eval('#picture svg g.node', (n) => n.length);
  check(nodes > 0, `Diff draws the trace graph (${nodes} nodes)`);
  const diffShot = args.screenshot.replace(/\.png$/, '-diff.png');
  await page.screenshot({path: diffShot, fullPage: true});
  console.log('screenshot: ' + diffShot);

  // 50 digits (cpp_bin_float) against the native MPFR run: same digits on this program.
  await page.selectOption('#examples', 'nested_rd.ad');
  await page.selectOption('#precision', '50');
  const digits = await press('run');
  const digitsWant = native('run', digits.source, digits.env, ['--precision', '50']);
  check(digits.stdout === digitsWant.stdout, 'Run at 50 digits prints what adlang run does',
        `page: ${digits.stdout}\nadlang: ${digitsWant.stdout}`);
  await page.selectOption('#precision', 'exact');
  const exact = await press('run');
  const exactWant = native('run', exact.source, exact.env, ['--precision', 'exact']);
  check(exact.stdout === exactWant.stdout, 'Run exact (cpp_rational) prints what adlang run does',
        `page: ${exact.stdout}\nadlang: ${exactWant.stdout}`);
  await page.selectOption('#precision', 'double');

  // Stop: a run of ten million calls (until the fuel runs out) is ended by terminating the
  // worker, and the page works again.
  await page.selectOption('#examples', 'deep_recursion.ad');
  await page.fill('#env', 'n=100000000\ny0=0.5');
  await page.click('#run');
  await page.waitForTimeout(300);
  const stoppable = await page.$eval('#stop', (b) => !b.disabled);
  check(stoppable, 'Stop is enabled during a long run');
  const stopStarted = Date.now();
  await page.click('#stop');
  await page.waitForFunction(() => document.getElementById('status').textContent === 'ready',
                             null, {timeout: 30000});
  check(Date.now() - stopStarted < 10000, `Stop ends the run (${Date.now() - stopStarted} ms)`);
  await page.selectOption('#examples', 'nested_rd.ad');
  const afterStop = await press('run');
  check(afterStop.code === 0 && afterStop.stdout === native('run', afterStop.source, []).stdout,
        'after Stop, Run works again', JSON.stringify(afterStop));

  // A syntax error: the CLI's message with its caret, and a location that moves the cursor.
  const bad = 'def f(x: real): real = x * ;\nf(1)\n';
  await page.fill('#editor', bad);
  await page.fill('#env', '');
  const err = await press('run');
  const errWant = native('run', bad, []);
  check(err.code === 3 && err.stderr === errWant.stderr && /\n\s*\^\n/.test(err.stderr),
        'a syntax error shows the CLI\'s diagnostic with its caret (exit 3)',
        `page: ${JSON.stringify(err)}\nadlang run: ${JSON.stringify(errWant)}`);
  const link = await page.$('#stderr a.loc');
  check(link !== null, 'the diagnostic\'s location is a link');
  if (link) {
    const [line, col] = await link.evaluate((a) => [Number(a.dataset.line), Number(a.dataset.col)]);
    await link.click();
    const cursor = await page.$eval('#editor', (e) => e.selectionStart);
    const lines = bad.split('\n');
    let want = col - 1;
    for (let i = 0; i < line - 1; ++i) want += lines[i].length + 1;
    check(cursor === want, `clicking playground.ad:${line}:${col} puts the cursor there`,
          `cursor at ${cursor}, expected ${want}`);
  }
  await page.screenshot({path: args.screenshot, fullPage: true});
  console.log('screenshot: ' + args.screenshot);
  check(pageErrors.length === 0, 'no script errors on the page', pageErrors.join('\n'));
} finally {
  await browser.close();
  server.kill();
  rmSync(scratch, {recursive: true, force: true});
}
if (failures > 0) fail(`${failures} check(s) failed`);
console.log('all checks passed');

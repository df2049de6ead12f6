// The playground in a real browser (docs/playground.md): headless Chromium (Debian's
// `chromium`, driven by npm's playwright-core) loads the built page from `adlang serve`,
// runs the syntax tour and two examples through the menu and the buttons, and compares the
// page's outputs with the native `adlang run` / `diff` / `plot` / `check` on the same programs;
// the editor numbers its lines and highlights the lexer's keywords, Ctrl-Enter runs, the
// address's fragment restores the program, the inputs and the settings, the menu offers the
// lessons and drops an example's name once it is edited, each command clears the outputs it
// replaces, the Fuel setting is used and named by the hint, Check's table fits its column;
// Check's progress bar moves and Stop ends it, keeping the counts so far; a syntax error shows
// its caret and a location that moves the editor's cursor; screenshots are written (FILE.png
// after the syntax error, FILE-diff.png after Diff with its trace graph, FILE-plot.png,
// FILE-check.png).
//
// node playground_test.mjs --adlang BIN --page DIR --screenshot FILE.png
// Fails (never skips) with the missing tool named when something is absent.
import {spawn, spawnSync} from 'node:child_process';
import {existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync, rmSync} from 'node:fs';
import {createRequire} from 'node:module';
import {tmpdir} from 'node:os';
import {dirname, join, resolve} from 'node:path';
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
const here = fileURLToPath(new URL('.', import.meta.url));
const sourceDir = resolve(here, '..', '..');
let chromium;
try {
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

  // The editor is CodeMirror (window.adlangEditor): its text is read and set through it.
  const setSource = (text) => page.evaluate((t) => window.adlangEditor.setValue(t), text);
  const getSource = () => page.evaluate(() => window.adlangEditor.getValue());
  // The inputs, and the menu of Diff and Plot that offers their names.
  const setEnv = async (text) => {
    await page.fill('#env', text);
    await page.$eval('#env', (e) => e.dispatchEvent(new Event('input')));
  };

  // Runs `button` and returns what the page shows.
  async function press(button) {
    await page.evaluate(() => { document.getElementById('exit').dataset.code = ''; });
    await page.click('#' + button);
    return shown();
  }
  async function shown(p = page) {
    await p.waitForFunction(() => document.getElementById('exit').dataset.code !== '' &&
                                     !document.getElementById('run').disabled,
                               null, {timeout: 60000});
    return p.evaluate(() => ({
      stdout: document.getElementById('stdout').textContent,
      stderr: document.getElementById('stderr').textContent,
      code: Number(document.getElementById('exit').dataset.code),
      error: document.getElementById('exit').dataset.error,
      exitText: document.getElementById('exit').textContent,
      env: document.getElementById('env').value.split('\n').filter((l) => l.trim() !== ''),
      source: window.adlangEditor.getValue(),
      title: document.getElementById('output-title').textContent,
      svg: document.querySelectorAll('#picture svg g.node').length,
    }));
  }

  // The editor: a gutter of line numbers, and the highlighting of every keyword of the lexer
  // (lang/lexer.cpp, kKeywords), of rd after a dot, numbers, operators and comments.
  const lexer = readFileSync(join(sourceDir, 'lang', 'lexer.cpp'), 'utf8');
  const keywords = [...lexer.slice(lexer.indexOf('kKeywords[]'), lexer.indexOf('};',
      lexer.indexOf('kKeywords[]'))).matchAll(/\{"([a-z]+)", TokenKind::Kw/g)].map((m) => m[1]);
  await setSource(`-- a comment\n${keywords.join(' ')}\n1.rd[x](t: real. 2.5e-1 * t)\n`);
  const styled = await page.evaluate(() => {
    const texts = (c) => [...document.querySelectorAll('.CodeMirror-code .cm-' + c)]
        .map((e) => e.textContent);
    return {keyword: texts('keyword'), number: texts('number'), operator: texts('operator'),
            comment: texts('comment'),
            lines: [...document.querySelectorAll('.CodeMirror-code .CodeMirror-linenumber')]
                .map((e) => e.textContent).filter((t) => /^\d+$/.test(t))};
  });
  check(keywords.length >= 10 && JSON.stringify(styled.lines) === '["1","2","3","4"]',
        `the editor numbers its lines (${styled.lines})`);
  check(JSON.stringify(styled.keyword) === JSON.stringify([...keywords, 'rd', 'real']) &&
        JSON.stringify(styled.number) === '["1","2.5e-1"]' &&
        JSON.stringify(styled.operator) === '["*"]' &&
        JSON.stringify(styled.comment) === '["-- a comment"]',
        `the editor highlights the ${keywords.length} keywords of lang/lexer.cpp, rd, numbers, ` +
        'operators and comments', JSON.stringify(styled));

  // The menu: the lessons of examples/teaching/ in their own group, in the lessons' order.
  const lessonFiles = readdirSync(join(sourceDir, 'examples', 'teaching'))
      .filter((f) => f.endsWith('.ad')).map((f) => 'teaching/' + f);
  const lessons = await page.$$eval('#examples optgroup', (groups) => groups.map((g) => ({
    label: g.label, options: [...g.querySelectorAll('option')].map((o) => [o.value, o.text])})));
  const lessonGroup = lessons.find((g) => /teaching/.test(g.label)) || {options: []};
  check(lessonFiles.length > 0 &&
        JSON.stringify(lessonGroup.options.map(([v]) => v).sort()) ===
            JSON.stringify(lessonFiles.sort()) &&
        lessonGroup.options.every(([, text], i) => text.startsWith(`Lesson ${i + 1}: `)),
        `the menu offers the ${lessonFiles.length} lessons of examples/teaching/ in their order`,
        JSON.stringify(lessons.map((g) => [g.label, g.options])));
  const lessonOne = lessonGroup.options.length ? lessonGroup.options[0][0] : 'none';
  await page.selectOption('#examples', lessonOne);
  const lessonRun = await press('run');
  const lessonWant = native('run', lessonRun.source, lessonRun.env);
  check(lessonRun.code === 0 && lessonRun.error === '' && lessonRun.exitText === 'exit code 0' &&
        lessonRun.stdout === lessonWant.stdout &&
        lessonRun.source === readFileSync(join(sourceDir, 'examples', lessonOne), 'utf8'),
        `Run ${lessonOne} from the menu prints what adlang run prints`, JSON.stringify(lessonRun));

  // Editing an example: the menu no longer names it ("NAME (edited)"); choosing it again
  // restores it.
  await page.selectOption('#examples', 'fact.ad');
  await page.click('.CodeMirror-code');
  await page.keyboard.press('Control+End');
  await page.keyboard.type(' ');
  const edited = await page.$eval('#examples', (s) => [s.value, s.selectedOptions[0].text]);
  await page.selectOption('#examples', 'fact.ad');
  const restored = await getSource();
  check(JSON.stringify(edited) === '["","fact.ad (edited)"]' &&
        restored === readFileSync(join(sourceDir, 'examples', 'fact.ad'), 'utf8'),
        `an edited example is shown as ${JSON.stringify(edited[1])}, and choosing it restores it`);

  // Ctrl-Enter and Cmd-Enter (Meta), in the editor and in the inputs, run the program.
  await page.selectOption('#examples', 'nested_rd.ad');
  const keyed = [];
  for (const [where, key] of [['.CodeMirror-code', 'Control+Enter'], ['.CodeMirror-code', 'Meta+Enter'],
                              ['#env', 'Control+Enter'], ['#env', 'Meta+Enter']]) {
    await page.evaluate(() => { document.getElementById('exit').dataset.code = ''; });
    await page.click(where);
    await page.keyboard.press(key);
    keyed.push(await shown());
  }
  const keyedWant = native('run', keyed[0].source, keyed[0].env);
  check(keyed.every((k) => k.code === 0 && k.stdout === keyedWant.stdout &&
                           k.title === 'Value (adlang run)' &&
                           k.source === readFileSync(join(sourceDir, 'examples', 'nested_rd.ad'),
                                                     'utf8')),
        'Ctrl-Enter and Cmd-Enter in the editor and in the inputs run the program (and insert nothing)',
        JSON.stringify(keyed));

  // The address's fragment: a program, its inputs and settings, loaded in a second page from
  // the link Share makes, are restored there, and run as in the first.
  const linked = 'def sq(y: real): real = y * y;\n-- shared\nsq(x) + a\n';
  await setSource(linked);
  await setEnv('x=3\na=0.25');
  await page.selectOption('#wrt', 'a');
  await page.selectOption('#precision', 'exact');
  await page.fill('#fuel', '5000');
  await page.click('#share');
  await page.waitForSelector('#share-link');
  const shareLink = await page.$eval('#share-link', (a) => a.href);
  const second = await browser.newPage({viewport: {width: 1400, height: 1000}});
  second.on('pageerror', (e) => pageErrors.push(String(e)));
  await second.goto(shareLink);
  await second.waitForFunction(() => document.getElementById('status').textContent === 'ready',
                               null, {timeout: 30000});
  const reloaded = await second.evaluate(() => ({
    source: window.adlangEditor.getValue(), env: document.getElementById('env').value,
    wrt: document.getElementById('wrt').value,
    precision: document.getElementById('precision').value,
    fuel: document.getElementById('fuel').value,
    example: document.getElementById('examples').value, url: location.href}));
  await second.click('#run');
  const secondRun = await shown(second);
  // A fragment pasted into the address bar (a hashchange, no reload) is restored too.
  await second.evaluate(() => { location.hash = '#code=x+*+2%0A&env=x%3D21'; });
  await second.waitForFunction(() => window.adlangEditor.getValue() === 'x * 2\n', null,
                               {timeout: 5000}).catch(() => {});
  const pasted = await second.evaluate(() => [window.adlangEditor.getValue(),
      document.getElementById('env').value, document.getElementById('precision').value,
      document.getElementById('fuel').value]);
  await second.close();
  check(JSON.stringify(pasted) === JSON.stringify(['x * 2\n', 'x=21', 'double', '']),
        'a fragment pasted into the address bar restores its program and inputs (and defaults)',
        JSON.stringify(pasted));
  check(shareLink === page.url() && shareLink.includes('#code=') &&
        JSON.stringify(reloaded) === JSON.stringify({source: linked, env: 'x=3\na=0.25', wrt: 'a',
            precision: 'exact', fuel: '5000', example: '', url: shareLink}) &&
        secondRun.stdout === native('run', linked, ['x=3', 'a=0.25'],
                                    ['--precision', 'exact']).stdout,
        'a link from Share restores the program, the inputs and the settings, and runs the same',
        `link ${shareLink}\nrestored ${JSON.stringify(reloaded)}\nrun ${JSON.stringify(secondRun)}`);
  await page.selectOption('#precision', 'double');
  await page.fill('#fuel', '');

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

  // Diff of a non-real result with a cotangent (--dir): relu.ad's pair.
  await page.selectOption('#examples', 'relu.ad');
  await page.fill('#dir', '(1, 2)');
  const dirShown = await press('diff');
  const dirWant = native('diff', dirShown.source, dirShown.env, ['--wrt', 'x', '--dir', '(1, 2)']);
  check(dirShown.code === 0 && dirShown.stdout === dirWant.stdout,
        'Diff relu.ad with the cotangent (1, 2) prints what adlang diff --dir prints',
        `page: ${JSON.stringify(dirShown)}\nadlang diff: ${JSON.stringify(dirWant)}`);
  await page.fill('#dir', '');

  // Plot: the samples as adlang plot prints them (without -o), drawn as a chart with the
  // point where ReLU is undefined (x = 0) marked.
  const reluReal = 'def relu(x: real): real = if (x < 0) then 0 else x;\nrelu(x) * x\n';
  await setSource(reluReal);
  await setEnv('x=0.5');
  await page.fill('#plot-from', '-2');
  await page.fill('#plot-to', '2');
  await page.fill('#plot-samples', '41');
  const plotShown = await press('plot');
  const plotWant = native('plot', reluReal, [],
                          ['--wrt', 'x', '--from', '-2', '--to', '2', '--samples', '41']);
  check(plotShown.code === 0 && plotShown.stdout === plotWant.stdout,
        'Plot prints the samples adlang plot prints',
        `page: ${JSON.stringify(plotShown)}\nadlang plot: ${JSON.stringify(plotWant)}`);
  const chart = await page.evaluate(() => ({
    curves: [...document.querySelectorAll('#picture svg.plot path.f, #picture svg.plot path.rd, ' +
                                          '#picture svg.plot path.central')].length,
    crosses: document.querySelectorAll('#picture svg.plot path.undefined').length,
  }));
  // Three curves and one cross at x = 0 (and the legend's cross).
  check(chart.curves === 3 && chart.crosses === 2,
        `Plot draws the program, rd and central differences, and marks x = 0 (${JSON.stringify(chart)})`);
  const plotShot = args.screenshot.replace(/\.png$/, '-plot.png');
  await page.screenshot({path: plotShot, fullPage: true});
  console.log('screenshot: ' + plotShot);

  // Check: the properties on 200 random programs, with the progress bar moving, against the
  // native `adlang check` (the rate column aside); then the editor's program.
  const count = 200;
  await page.fill('#check-count', String(count));
  await page.fill('#check-seed', '7');
  await page.evaluate(() => {
    window.progressSeen = [];
    window.progressTimer = setInterval(() => {
      const b = document.getElementById('check-progress');
      window.progressSeen.push([b.value, b.max]);
    }, 20);
  });
  const checkShown = await press('check');
  const progressSeen = await page.evaluate(() => {
    clearInterval(window.progressTimer);
    return window.progressSeen;
  });
  const checkWant = spawnSync(args.adlang, ['check', '--count', String(count), '--seed', '7'],
                              {encoding: 'utf8'});
  // The default set of `adlang check --list`: not the properties run only when named (the
  // export's, which runs Python), each marked so on the line after its name.
  const listLines = spawnSync(args.adlang, ['check', '--list'], {encoding: 'utf8'}).stdout
      .split('\n').slice(1);
  const listed = listLines
      .filter((l, i) => /^\S/.test(l) && !/run only when named/.test(listLines[i + 1] || ''))
      .map((l) => l.split(' ')[0]);
  // The table's rows: the same properties, each on the same number of programs, none failing,
  // as in the CLI's table. The other columns may differ (docs/playground.md, "Check's counts"):
  // a program that recurses deeper than the page's stack allows is undefined or discarded in
  // the page where the command line evaluates it, and the page's libm and cpp_bin_float are
  // not the CLI's glibc and MPFR. The rows that differ are printed. The rate column is the
  // machine's.
  const rows = (t) => t.split('\n').filter((l) => /^[a-z-]+ +\d/.test(l)).map((l) => l.split(/ +/));
  const pageRows = rows(checkShown.stdout), cliRows = rows(checkWant.stdout);
  const sameRuns = (r) => r.map(([name, tried, , failed]) => [name, tried, failed].join(' '));
  check(checkShown.code === 0 && checkWant.status === 0 && pageRows.length === listed.length &&
        JSON.stringify(sameRuns(pageRows)) === JSON.stringify(sameRuns(cliRows)) &&
        pageRows.every((r) => r[3] === '0') && checkShown.stdout.endsWith('all properties passed\n'),
        `Check on ${count} random programs runs adlang check's properties, none failing`,
        `page:\n${checkShown.stdout}${checkShown.stderr}\nadlang check:\n${checkWant.stdout}`);
  pageRows.forEach((r, i) => {
    const c = cliRows[i] || [];
    if (r.slice(0, 6).join(' ') !== c.slice(0, 6).join(' '))
      console.log(`     page ${r.slice(0, 6).join(' ')} | adlang check ${c.slice(0, 6).join(' ')}`);
  });
  const between = progressSeen.filter(([v, m]) => v > 0 && v < m).length;
  const final = await page.$eval('#check-progress', (b) => [b.value, b.max]);
  const offered = await page.$$eval('#check-property option', (o) => o.map((x) => x.value));
  check(JSON.stringify(offered) === JSON.stringify(['', ...listed]),
        `the property menu offers all and the ${listed.length} properties of adlang check --list`,
        `page: ${offered}\nadlang check --list: ${listed}`);
  check(between > 0 && final[1] === listed.length * count,
        `the progress bar moves during Check (${between} samples between 0 and ${final[1]})`);
  // The table keeps one line a row (never wrapped) and fits its column, also in a narrower
  // window (its font is made smaller).
  const fits = [];
  for (const width of [1400, 1100]) {
    await page.setViewportSize({width, height: 1000});
    // The page refits the table on its resize event, which comes with the next frame.
    await page.waitForFunction(() => {
      const o = document.getElementById('stdout');
      return o.scrollWidth <= o.clientWidth;
    }, null, {timeout: 2000}).catch(() => {});
    fits.push(await page.$eval('#stdout', (o, w) => ({
      width: w, whiteSpace: getComputedStyle(o).whiteSpace,
      font: parseFloat(getComputedStyle(o).fontSize), fits: o.scrollWidth <= o.clientWidth}), width));
  }
  await page.setViewportSize({width: 1400, height: 1000});
  check(fits.every((f) => f.whiteSpace === 'pre' && f.fits && f.font >= 10) &&
        fits[1].font < fits[0].font,
        'Check\'s table fits its column unwrapped at 1400 and 1100 pixels', JSON.stringify(fits));
  await page.selectOption('#examples', 'fact.ad');
  await page.selectOption('#check-on', 'editor');
  const checkOne = await press('check');
  const checkOneWant = native('check', checkOne.source, checkOne.env);
  check(checkOne.code === checkOneWant.code && checkOne.stdout === checkOneWant.stdout,
        'Check of the editor\'s program prints what adlang check FILE prints',
        `page: ${JSON.stringify(checkOne)}\nadlang check: ${JSON.stringify(checkOneWant)}`);
  await page.selectOption('#check-on', 'random');
  const checkShot = args.screenshot.replace(/\.png$/, '-check.png');
  await page.screenshot({path: checkShot, fullPage: true});
  console.log('screenshot: ' + checkShot);

  // Stop during Check: a long run is ended, and the page works again.
  await page.fill('#check-count', '100000');
  await page.click('#check');
  await page.waitForFunction(() => document.getElementById('check-progress').value > 0, null,
                             {timeout: 30000});
  const checkStopStarted = Date.now();
  await page.click('#stop');
  await page.waitForFunction(() => document.getElementById('status').textContent === 'ready',
                             null, {timeout: 30000});
  check(Date.now() - checkStopStarted < 10000,
        `Stop ends a Check of 100000 programs (${Date.now() - checkStopStarted} ms)`);
  // What it shows: the table of the counts the worker last reported, and their sum.
  const [stoppedCheck, stoppedLayout] = await page.$eval('#stdout', (o) => [o.textContent,
      getComputedStyle(o).whiteSpace]);
  const stoppedRows = rows(stoppedCheck);
  const stoppedAfter = stoppedRows.reduce((n, r) => n + Number(r[1]), 0);
  check(/^property +tried +passed +failed +both-undef +discarded +prog\/s\n/.test(stoppedCheck) &&
        stoppedRows.length > 0 && stoppedAfter > 0 &&
        stoppedRows.every((r) => Number(r[1]) === Number(r[2]) + Number(r[3]) + Number(r[4]) +
                                                   Number(r[5])) &&
        stoppedCheck.endsWith(`\nstopped after ${stoppedAfter} programs\n`) &&
        stoppedLayout === 'pre',
        `Stop keeps the table of the counts so far ("stopped after ${stoppedAfter} programs")`,
        stoppedCheck);
  await page.fill('#check-count', String(count));

  // Stop: a run of ten million calls (until the fuel runs out) is ended by terminating the
  // worker, and the page works again.
  await page.selectOption('#examples', 'deep_recursion.ad');
  await page.fill('#env', 'n=10\ny0=0.5');
  await press('run');
  await page.fill('#env', 'n=100000000\ny0=0.5');
  // The outputs of before (the run of 10 calls) are cleared when Run starts, and Stop leaves
  // none.
  const outputs = () => page.evaluate(() => ({
    stdout: document.getElementById('stdout').textContent,
    stderr: document.getElementById('stderr').textContent,
    picture: document.getElementById('picture').childElementCount,
    exit: document.getElementById('exit').textContent,
    checkStatus: document.getElementById('check-status').textContent,
    title: document.getElementById('output-title').textContent}));
  const before = await outputs();
  await page.click('#run');
  await page.waitForTimeout(300);
  const stoppable = await page.$eval('#stop', (b) => !b.disabled);
  check(stoppable, 'Stop is enabled during a long run');
  const during = await outputs();
  const stopStarted = Date.now();
  await page.click('#stop');
  await page.waitForFunction(() => document.getElementById('status').textContent === 'ready',
                             null, {timeout: 30000});
  check(Date.now() - stopStarted < 10000, `Stop ends the run (${Date.now() - stopStarted} ms)`);
  const afterStopped = await outputs();
  check(before.stdout !== '' &&
        JSON.stringify(during) === JSON.stringify({stdout: '', stderr: '', picture: 0, exit: '',
            checkStatus: '', title: 'Value (adlang run)'}) &&
        JSON.stringify(afterStopped) === JSON.stringify({...during, exit: 'stopped'}),
        'Run clears the outputs it replaces, and Stop leaves none but "stopped"',
        JSON.stringify({before, during, afterStopped}));
  await page.selectOption('#examples', 'nested_rd.ad');
  const afterStop = await press('run');
  check(afterStop.code === 0 && afterStop.stdout === native('run', afterStop.source, []).stdout,
        'after Stop, Run works again', JSON.stringify(afterStop));

  // The page's shallower stack (docs/playground.md): a recursion traced 20 calls deep runs as
  // on the command line; 500 calls deep ends in the CLI's own "nested too deeply" (exit 1),
  // not in a crash of the worker, and the page goes on.
  const recursion = 'def f(n: real): real = if n < 0.5 then 0 else 1 + f(n - 1);\nf(x)\n';
  await setSource(recursion);
  await page.fill('#env', 'x=20');
  const shallow = await press('trace');
  check(shallow.code === 0 && shallow.stdout === native('trace', recursion, ['x=20']).stdout,
        'Trace of a recursion 20 calls deep prints what adlang trace prints', JSON.stringify(shallow));
  await page.fill('#env', 'x=500');
  const deep = await press('trace');
  check(deep.code === 1 && /nested too deeply/.test(deep.stderr) && !/browser/.test(deep.stderr),
        'Trace of a recursion 500 calls deep ends in the undefined "nested too deeply"',
        JSON.stringify(deep));
  const afterDeep = await press('run');
  check(afterDeep.code === 0 && afterDeep.stdout === '500\n', 'after it, Run works', JSON.stringify(afterDeep));

  // The Fuel setting is adlang run's --fuel, and the hint names it rather than the flag; empty,
  // it shows the default (docs/cli.md: 10,000,000 calls in double precision).
  const fuelDefault = await page.$eval('#fuel', (f) => [f.value, f.placeholder]);
  check(JSON.stringify(fuelDefault) === '["","10000000"]',
        `the empty Fuel setting shows the default fuel (${fuelDefault[1]})`);
  const endless = 'def f(n: real): real = f(n);\nf(x)\n';
  await setSource(endless);
  await page.fill('#env', 'x=1');
  await page.fill('#fuel', '1000');
  const noFuel = await press('run');
  const noFuelWant = native('run', endless, ['x=1'], ['--fuel', '1000']);
  await page.fill('#fuel', '');
  check(noFuel.code === 1 && /out of fuel after 1000 function calls/.test(noFuel.stderr) &&
        /raise the limit with the page's Fuel setting \(N\)/.test(noFuel.stderr) &&
        noFuel.stderr === noFuelWant.stderr.replace('--fuel N', 'the page\'s Fuel setting (N)'),
        'the Fuel setting bounds the calls, and the hint names the page\'s Fuel setting',
        `page: ${JSON.stringify(noFuel)}\nadlang run --fuel 1000: ${JSON.stringify(noFuelWant)}`);
  // So does the hint for an input without a value: a line of the page's Inputs.
  await setEnv('');
  const noInput = await press('run');
  const noInputWant = native('run', endless, []);
  check(noInput.code === noInputWant.code && /--env x=VALUE/.test(noInputWant.stderr) &&
        noInput.stderr === noInputWant.stderr.replace('--env x=VALUE',
                                                      'a line x=VALUE in the page\'s Inputs'),
        'the hint for an input without a value names a line of the page\'s Inputs',
        `page: ${JSON.stringify(noInput)}\nadlang run: ${JSON.stringify(noInputWant)}`);

  // A syntax error: the CLI's message with its caret, and a location that moves the cursor.
  const bad = 'def f(x: real): real = x * ;\nf(1)\n';
  await setSource(bad);
  await page.fill('#env', '');
  const err = await press('run');
  const errWant = native('run', bad, []);
  check(err.code === 3 && err.stderr === errWant.stderr && /\n\s*\^\n/.test(err.stderr) &&
            err.error === 'CompileError' && err.exitText === 'exit code 3 (CompileError)',
        'a syntax error shows the CLI\'s diagnostic with its caret (exit 3, CompileError)',
        `page: ${JSON.stringify(err)}\nadlang run: ${JSON.stringify(errWant)}`);
  const link = await page.$('#stderr a.loc');
  check(link !== null, 'the diagnostic\'s location is a link');
  if (link) {
    const [line, col] = await link.evaluate((a) => [Number(a.dataset.line), Number(a.dataset.col)]);
    await link.click();
    const cursor = await page.evaluate(() => window.adlangEditor.indexFromPos(
        window.adlangEditor.getCursor()));
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

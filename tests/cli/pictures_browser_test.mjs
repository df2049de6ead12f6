// Trace pictures as a student sees them: `adlang trace --format svg` of a few programs, shown
// in headless Chromium (Debian's `chromium`, driven by npm's playwright-core from web/test) as
// a notebook shows an SVG output (fitted to the cell's width, never enlarged) at two widths:
// a notebook cell (800 px) and a page's column (600 px, the playground's right half on a
// 1280-pixel screen). Every label's rendered text must stay at least MIN_TEXT_PX pixels tall:
// the picture fits without shrinking its text below a readable size. Screenshots are written
// (OUT/NAME-800.png, OUT/NAME-600.png) for a person to look at.
//
// node pictures_browser_test.mjs --adlang BIN --examples DIR --out DIR
// Fails (never skips) with the missing tool named when something is absent.
import {spawnSync} from 'node:child_process';
import {existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {createRequire} from 'node:module';
import {tmpdir} from 'node:os';
import {join, resolve} from 'node:path';
import {fileURLToPath} from 'node:url';

// 11 px: the height of 8-point type on a 96 dpi screen, the smallest a label may become.
const MIN_TEXT_PX = 11;
const WIDTHS = [800, 600];

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

for (const k of ['adlang', 'examples', 'out'])
  if (!args[k]) fail(`missing --${k}`);
args.adlang = resolve(args.adlang);
if (!existsSync(args.adlang)) fail(`${args.adlang} not found: build adlang first`);
if (!existsSync(chromiumPath))
  fail(`${chromiumPath} not found: install Debian's chromium (scripts/install-deps.sh --web)`);
let chromium;
try {
  const here = fileURLToPath(new URL('.', import.meta.url));
  chromium = createRequire(join(here, '../../web/test/package.json'))('playwright-core').chromium;
} catch (e) {
  fail('npm package playwright-core is missing in web/test/node_modules: run ' +
       'scripts/install-deps.sh --web (npm ci in web/test)');
}
mkdirSync(args.out, {recursive: true});

// The pictures: a lesson's trace, the two non-commutative operators, and the trace of a
// recursive function (fact(5.25): five calls, each a test, a subtraction and a product).
const scratch = mkdtempSync(join(tmpdir(), 'adlang-pictures-'));
const programs = [
  {name: 'chain_rule', file: join(args.examples, 'teaching/chain_rule.ad'), env: ['x=0.5']},
  {name: 'fact', file: join(args.examples, 'fact.ad'), env: ['x=5.25']},
  {name: 'quotient', source: 'let d: real = x - y in (x / d) - y * sin(d)\n',
   env: ['x=3', 'y=1.25']},
];
const pictures = [];
for (const p of programs) {
  const file = p.file || join(scratch, p.name + '.ad');
  if (p.source) writeFileSync(file, p.source);
  const svg = join(scratch, p.name + '.svg');
  const r = spawnSync(args.adlang, ['trace', file, ...p.env.flatMap((e) => ['--env', e]),
                                    '--wrt', 'x', '--format', 'svg', '-o', svg],
                      {encoding: 'utf8'});
  if (r.status !== 0) fail(`adlang trace ${p.name} exited with ${r.status}: ${r.stderr}`);
  pictures.push({name: p.name, svg: readFileSync(svg, 'utf8')});
}

const browser = await chromium.launch({
  executablePath: chromiumPath,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run',
         '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
try {
  const page = await browser.newPage({viewport: {width: 1000, height: 800}});
  for (const picture of pictures) {
    for (const width of WIDTHS) {
      // As a notebook shows an SVG output: inline, at most as wide as the cell.
      await page.setContent(
          `<!DOCTYPE html><html><body style="margin:0;background:white">` +
          `<div id="cell" style="width:${width}px">${picture.svg}</div>` +
          `<style>#cell svg { max-width: 100%; height: auto; display: block; }</style>` +
          `</body></html>`);
      const m = await page.evaluate(() => {
        const svg = document.querySelector('#cell svg');
        const box = svg.getBoundingClientRect();
        const heights = [...svg.querySelectorAll('g.node text, g.edge text')]
                            .map((t) => t.getBoundingClientRect().height);
        return {width: box.width, height: box.height, texts: heights.length,
                smallest: Math.min(...heights)};
      });
      const shot = join(args.out, `${picture.name}-${width}.png`);
      await page.screenshot({path: shot, fullPage: true});
      check(m.texts > 0 && m.smallest >= MIN_TEXT_PX,
            `${picture.name} in a ${width}-pixel column: ${Math.round(m.width)} x ` +
            `${Math.round(m.height)} px, its smallest label ${m.smallest.toFixed(1)} px tall ` +
            `(at least ${MIN_TEXT_PX}); screenshot ${shot}`);
    }
  }
} finally {
  await browser.close();
  rmSync(scratch, {recursive: true, force: true});
}
if (failures > 0) {
  console.error(`${failures} check(s) failed`);
  process.exit(1);
}
console.log('all checks passed');

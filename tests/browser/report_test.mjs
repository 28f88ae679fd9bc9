// The HTML report in a real browser (Debian's headless chromium, driven by playwright-core):
// a tiny trained run's report loads with no console errors, holds one heatmap per line of
// index.jsonl, a hovered cell's title gives its weight as the CSV has it, a source sentence
// with <script> and & is shown as text, and the page is not blank.
// Usage: node report_test.mjs S2S_BINARY WORK_DIR   (run from the repository root)
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';

const [s2s, work] = process.argv.slice(2);
const fail = (message) => { console.log(`FAIL: ${message}`); process.exit(1); };
const chromiumPath = '/usr/bin/chromium';
if (!fs.existsSync(chromiumPath)) fail(`${chromiumPath} not found: scripts/setup.sh --test installs it`);

fs.rmSync(work, { recursive: true, force: true });
fs.mkdirSync(path.join(work, 'data'), { recursive: true });
const head = (file, n) => fs.readFileSync(file, 'utf8').split('\n').slice(0, n).join('\n') + '\n';
for (const ext of ['en', 'fr']) {
  fs.writeFileSync(path.join(work, `data/train.${ext}`), head(`data/en-fr/train.${ext}`, 300));
  fs.writeFileSync(path.join(work, `data/valid.${ext}`), head(`data/en-fr/valid.${ext}`, 40));
}
// The first test sentence carries markup that must stay text.
const tricky = 'The <script>alert("x")</script> cat & the "dog".';
fs.writeFileSync(path.join(work, 'data/test.en'), tricky + '\n' + head('data/en-fr/test.en', 3));
fs.writeFileSync(path.join(work, 'data/test.fr'), 'Le chat & le chien.\n' + head('data/en-fr/test.fr', 3));
const config = {
  run_dir: path.join(work, 'run'),
  data: { train: 'data/train', valid: 'data/valid', test: 'data/test', src_ext: 'en', tgt_ext: 'fr' },
  model: { emb_size: 16, hidden_size: 16, attention: { heads: 2, key_value: true, size: 16 },
           encoder: { self_attention: true, self_attention_heads: 2 } },
  training: { batch_size: 16, max_steps: 20, validate_every: 10, num_samples: 0, threads: 1 },
  evaluation: { heatmaps: 3 },
};
fs.writeFileSync(path.join(work, 'tiny.json'), JSON.stringify(config));
execFileSync(s2s, ['train', '-c', path.join(work, 'tiny.json')], { stdio: 'pipe' });
const run = config.run_dir;
const report = path.join(run, 'report.html');
if (!fs.existsSync(report)) fail('train wrote no report.html');
const html = fs.readFileSync(report, 'utf8');
if (/<script/i.test(html.replace(/&lt;script/g, ''))) fail('the page holds a <script> element');
const index = fs.readFileSync(path.join(run, 'heatmaps/index.jsonl'), 'utf8').trim().split('\n')
  .map((line) => JSON.parse(line));

const browser = await chromium.launch({
  executablePath: chromiumPath,
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
         '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
const errors = [];
const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
page.on('console', (msg) => { if (msg.type() === 'error') errors.push(msg.text()); });
page.on('pageerror', (error) => errors.push(String(error)));
page.on('request', (request) => {
  if (!request.url().startsWith('file:')) errors.push(`network request: ${request.url()}`);
});
await page.goto('file://' + report);
await page.waitForLoadState('load');

const maps = await page.locator('svg.heatmap').count();
if (maps !== index.length) fail(`${maps} heatmaps on the page, ${index.length} in index.jsonl`);

// The first cell of the first heatmap: its title (what hovering shows) against the CSV.
const csv = fs.readFileSync(path.join(run, 'heatmaps', index[0].file), 'utf8').split('\n');
const firstWeight = csv[1].split(',').slice(-csv[0].split(',').length + 1)[0];
const cell = page.locator('svg.heatmap').first().locator('rect.cell').first();
await cell.hover();
const title = await cell.locator('title').textContent();
if (!title.endsWith(`: ${firstWeight}`)) fail(`cell title '${title}' does not end with the CSV weight ${firstWeight}`);

const text = await page.locator('body').innerText();
if (!text.includes(tricky)) fail('the source sentence with <script> and & is not shown as text');
if ((await page.evaluate(() => document.scripts.length)) !== 0) fail('the page runs scripts');

const shot = await page.screenshot({ fullPage: true });
await page.goto('about:blank');
const blank = await page.screenshot({ fullPage: true });
fs.writeFileSync(path.join(work, 'report.png'), shot);
if (shot.length < 5 * blank.length) fail(`the screenshot looks blank (${shot.length} vs ${blank.length} bytes)`);
await browser.close();
if (errors.length) fail(`console errors: ${errors.join('; ')}`);
console.log(`report test passed: ${maps} heatmaps, ${html.length} bytes, screenshot ${shot.length} bytes`);

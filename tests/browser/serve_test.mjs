// The page of `s2s serve` in a real browser (Debian's headless chromium, driven by
// playwright-core): a tiny trained run is served on a free port of 127.0.0.1; typing a sentence
// and pressing Enter shows a translation and the attention heatmap (the report's SVG, a hovered
// cell's weight shown), with no console errors and no request beyond the server. The screenshot
// is left in WORK_DIR/serve.png for a person to look at.
// Usage: node serve_test.mjs S2S_BINARY WORK_DIR   (run from the repository root)
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';

const [s2s, work] = process.argv.slice(2);
let server = null;
const fail = (message) => {
  console.log(`FAIL: ${message}`);
  if (server) server.kill('SIGKILL');
  process.exit(1);
};
const chromiumPath = '/usr/bin/chromium';
if (!fs.existsSync(chromiumPath)) fail(`${chromiumPath} not found: scripts/setup.sh --test installs it`);

fs.rmSync(work, { recursive: true, force: true });
fs.mkdirSync(work, { recursive: true });
const run = path.join(work, 'run');
execFileSync(s2s, ['train', '-c', 'tests/cli/fixtures/tiny.json', '--set', `run_dir=${run}`,
  '--set', 'evaluation.heatmaps=0'], { stdio: 'pipe' });

// The server, and its port from the startup line.
server = spawn(s2s, ['serve', '--run', run, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
// Whatever ends this test (a failed check, a timeout thrown by playwright), no server is left.
process.on('exit', () => server.kill('SIGKILL'));
let log = '';
const port = await new Promise((resolve, reject) => {
  const timer = setTimeout(() => reject(new Error(`no startup line:\n${log}`)), 60000);
  const read = (chunk) => {
    log += chunk;
    const found = /on http:\/\/127\.0\.0\.1:(\d+)\//.exec(log);
    if (found) { clearTimeout(timer); resolve(Number(found[1])); }
  };
  server.stdout.on('data', read);
  server.stderr.on('data', read);
  server.on('exit', (code) => reject(new Error(`the server exited with ${code}:\n${log}`)));
}).catch((e) => fail(e.message));
const origin = `http://127.0.0.1:${port}`;

const browser = await chromium.launch({
  executablePath: chromiumPath,
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
         '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
const errors = [];
const page = await browser.newPage({ viewport: { width: 1100, height: 800 } });
page.on('console', (msg) => { if (msg.type() === 'error') errors.push(msg.text()); });
page.on('pageerror', (error) => errors.push(String(error)));
page.on('request', (request) => {
  if (!request.url().startsWith(origin + '/')) errors.push(`network request: ${request.url()}`);
});
await page.goto(origin + '/');
await page.waitForLoadState('load');
await page.waitForFunction(() => !document.getElementById('info').textContent.includes('loading'));

// Keyboard only: the text box has the focus, Enter translates.
const sentence = fs.readFileSync('data/en-fr/test.en', 'utf8').split('\n')[0];
await page.keyboard.type(sentence);
await page.keyboard.press('Enter');
await page.locator('.result .translation').first().waitFor({ timeout: 60000 });
const translation = await page.locator('.result .translation').first().textContent();
const answer = await (await fetch(`${origin}/translate`, {
  method: 'POST', body: JSON.stringify({ text: sentence }) })).json();
if (translation !== answer.translation) fail(`the page shows '${translation}', the API '${answer.translation}'`);

const map = page.locator('.result svg.heatmap');
if ((await map.count()) !== 1) fail(`${await map.count()} heatmaps on the page`);
const cell = map.locator('rect.cell').first();
await cell.hover();
const title = await cell.locator('title').textContent();
const hover = await page.locator('#hover').textContent();
if (!/: (exactly 0|[0-9.e-]+)$/.test(title) || hover !== title) fail(`hover shows '${hover}', the cell's title is '${title}'`);

// A bad request shows the server's reason, and the page keeps working.
await page.fill('#beam', '0');
await page.locator('#source').press('Enter');
await page.waitForFunction(() => document.getElementById('error').textContent !== '');
const error = await page.locator('#error').textContent();
if (!error.includes('beam')) fail(`the error for beam 0 reads '${error}'`);
await page.fill('#beam', '3');
await page.fill('#nbest', '2');
await page.locator('#source').press('Enter');
await page.locator('ol.nbest li').nth(1).waitFor({ timeout: 60000 });
errors.splice(0, errors.length, ...errors.filter((e) => !e.includes('400 (Bad Request)')));

const shot = await page.screenshot({ fullPage: true });
fs.writeFileSync(path.join(work, 'serve.png'), shot);
await browser.close();
server.kill('SIGTERM');
const code = await new Promise((resolve) => server.on('exit', (c, signal) => resolve(c ?? signal)));
if (code !== 143) fail(`the server exited with ${code} after SIGTERM`);
if (errors.length) fail(`console errors: ${errors.join('; ')}`);
console.log(`serve page test passed: '${sentence}' -> '${translation}', screenshot ${shot.length} bytes`);

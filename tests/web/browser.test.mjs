#!/usr/bin/env node
// Browser test of the web explorer (web/client) against a real `tcx serve`, in headless Chromium through
// playwright-core (the system's /usr/bin/chromium; no browser is downloaded).
//
//   node tests/web/browser.test.mjs build/app/tcx/tcx .      (npm install in tests/web first)
//
// Prints one line per check and exits 1 if any failed. TCX_SCREENSHOTS=1 also writes docs/screens/web-<view>.png.
import { chromium } from 'playwright-core';
import { spawn, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const [tcxArg, repoArg, samplesArg] = process.argv.slice(2);
if (!tcxArg || !repoArg) {
  console.error('usage: node browser.test.mjs TCX_BINARY REPO_ROOT [TCX_SAMPLES_BINARY]');
  process.exit(2);
}
const TCX = path.resolve(tcxArg);
const REPO = path.resolve(repoArg);
// With tcx-samples, the timings also open a 1,000-op model and draw a 10,000-op graph expanded (written into the
// build tree next to tcx, which must lie under the served root REPO).
const SAMPLES_TOOL = samplesArg ? path.resolve(samplesArg) : null;
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync'];
const VIEWPORT = { width: 1600, height: 1000 };
const OPEN_TIMEOUT = 120000;

let failures = 0;
function check(name, ok, detail) {
  console.log((ok ? 'ok    ' : 'FAIL  ') + name + (detail ? ': ' + String(detail).replace(/\s+/g, ' ') : ''));
  if (!ok) failures++;
  return ok;
}
function note(text) {
  console.log('      ' + text);
}
// A group of checks; an exception fails it and the run goes on.
async function step(name, body) {
  try {
    await body();
  } catch (e) {
    check(name, false, e.message.split('\n')[0]);
  }
}

// `tcx serve --port 0`; resolves to its base URL once it prints the port.
function startServer(extra = []) {
  const child = spawn(TCX, ['serve', '--port', '0', '--root', REPO, ...extra], { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const url = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('tcx serve printed no port in 30 s: ' + output)), 30000);
    child.stdout.on('data', (chunk) => {
      output += chunk;
      const m = output.match(/tcx serve: listening on (http:\/\/[^\s/]+)\//);
      if (m) { clearTimeout(timer); resolve(m[1] + '/'); }
    });
    child.stderr.on('data', (chunk) => { output += chunk; });
    child.on('exit', (code) => { clearTimeout(timer); reject(new Error('tcx serve exited (' + code + '): ' + output)); });
  });
  return { child, url };
}

function stopServer(server) {
  if (server.child.exitCode === null) server.child.kill('SIGTERM');
}

const idle = (page, timeout = OPEN_TIMEOUT) =>
  page.waitForFunction(() => document.body.dataset.ready === '1' && !document.body.dataset.busy, null, { timeout });

// Opens a model through the toolbar's path box; resolves to the milliseconds until everything is drawn.
async function openByPath(page, rel) {
  const started = Date.now();
  await page.fill('#open-path', rel);
  await page.click('#open-button');
  try {
    await page.waitForFunction((file) => window.tcx.state.model && window.tcx.state.model.file === file && !document.body.dataset.busy
      && window.tcx.views.main.complete || window.tcx.state.lastError, rel, { timeout: OPEN_TIMEOUT });
    await idle(page);
  } catch (e) {
    throw new Error(`${rel} not open and drawn within ${OPEN_TIMEOUT / 1000} s`);
  }
  return Date.now() - started;
}

// The main canvas: drawn nodes, nodes in the view, and how many sampled pixels are painted.
async function canvasState(page, id = 'graph') {
  await page.waitForFunction((side) => (side ? window.tcx.views.side : window.tcx.views.main).complete, id !== 'graph',
    { timeout: OPEN_TIMEOUT });
  return page.evaluate((canvasId) => {
    const canvas = document.getElementById(canvasId);
    const pane = canvasId === 'graph' ? window.tcx.views.main : window.tcx.views.side;
    const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
    let painted = 0;
    for (let i = 3; i < data.length; i += 4 * 7) if (data[i]) painted++;
    return { drawn: pane.drawnNodes, nodes: pane.view ? pane.view.nodes.length : 0, painted, error: window.tcx.state.lastError };
  }, id);
}

async function showTab(page, view) {
  await page.click(`#tabs button[data-view="${view}"]`);
  await page.waitForFunction((v) => window.tcx.state.view === v && window.tcx.views.main.shown === v, view, { timeout: OPEN_TIMEOUT });
  await idle(page);
}

const viewsOf = (page) => page.evaluate(() => [...document.querySelectorAll('#tabs button')].map((b) => b.dataset.view));

// Sets an edge's state through its row's select; resolves when the page is idle again.
async function setEdge(page, id, state) {
  await page.selectOption(`#strategy-table select[data-edge="${id}"]`, state);
  await page.waitForTimeout(50);
  await idle(page);
}

const strategyState = (page) => page.evaluate(() => ({
  constraints: window.tcx.state.strategy.constraints,
  edges: window.tcx.state.strategy.edges.map((e) => ({ id: e.id, chosen: e.chosen, state: e.state, saving: e.saving, conflicts: e.conflicts || [] })),
  chart: window.tcx.state.chartValues.slice(),
  error: window.tcx.state.lastError,
  errorShown: !document.getElementById('error').hidden,
}));

function findModels() {
  const samples = fs.readdirSync(path.join(REPO, 'samples')).filter((f) => f.endsWith('.onnx')).sort().map((f) => 'samples/' + f);
  const all = [];
  const walk = (dir) => {
    for (const entry of fs.readdirSync(path.join(REPO, dir), { withFileTypes: true })) {
      const rel = dir + '/' + entry.name;
      if (entry.isDirectory()) walk(rel);
      else if (entry.name.endsWith('.onnx')) all.push({ rel, size: fs.statSync(path.join(REPO, rel)).size });
    }
  };
  for (const dir of ['samples', 'models']) if (fs.existsSync(path.join(REPO, dir))) walk(dir);
  // Git LFS pointers are tiny text files, not models.
  const real = all.filter((m) => !fs.readFileSync(path.join(REPO, m.rel)).subarray(0, 40).toString().startsWith('version https://git-lfs'));
  real.sort((a, b) => b.size - a.size);
  return { samples, largest: real[0] };
}

// The sample the interaction checks use: one with VTOG edges and conflicting pairs if there is one.
function pickSample(samples) {
  for (const preferred of ['samples/gqa_decode.onnx', 'samples/mha_decode.onnx']) if (samples.includes(preferred)) return preferred;
  return samples[0];
}

async function checkSamples(page, samples) {
  for (const rel of samples) {
    await step('open ' + rel, async () => {
      const ms = await openByPath(page, rel);
      const error = await page.evaluate(() => window.tcx.state.lastError);
      if (!check('open ' + rel + ' by path', !error, error || ms + ' ms')) return;
      for (const view of await viewsOf(page)) {
        await showTab(page, view);
        const s = await canvasState(page);
        check(`  ${view} drawn`, s.nodes > 0 && s.drawn > 0 && s.painted > 0 && !s.error,
          `${s.nodes} nodes, ${s.drawn} drawn, ${s.painted} painted samples${s.error ? ', error ' + s.error : ''}`);
      }
      const label = await page.textContent('#latency-source');
      check('  latency labelled', /estimated|measured/.test(label), label);
    });
  }
}

async function checkScreenshots(page, rel) {
  const dir = path.join(REPO, 'docs', 'screens');
  fs.mkdirSync(dir, { recursive: true });
  await openByPath(page, rel);
  for (const view of await viewsOf(page)) {
    await showTab(page, view);
    await page.waitForFunction(() => window.tcx.views.main.complete, null, { timeout: OPEN_TIMEOUT });
    const file = path.join(dir, 'web-' + view + '.png');
    await page.screenshot({ path: file });
    note('screenshot ' + path.relative(REPO, file));
  }
}

// The screen position (page coordinates) of a node of the main view.
function nodeCentre(page, key) {
  return page.evaluate((k) => {
    const pane = window.tcx.views.main;
    const node = pane.view.nodes.find((n) => n.key === k);
    const rect = document.getElementById('graph').getBoundingClientRect();
    const [x, y, w, h] = node.box;
    return { x: rect.left + (x + w / 2) * pane.t.k + pane.t.x, y: rect.top + (y + h / 2) * pane.t.k + pane.t.y };
  }, key);
}

async function checkSelection(page) {
  await showTab(page, 'computation');
  // An op with a kernel, so that the kernel table has a row to mark.
  const kernelOps = await page.evaluate(() => [...document.querySelectorAll('#kernel-table tbody tr')].map((tr) => tr.dataset.key));
  const key = await page.evaluate(() => {
    const nodes = window.tcx.views.main.view.nodes;
    const op = nodes.find((n) => n.style === 'op') || nodes.find((n) => n.key.startsWith('node:')) || nodes[0];
    return op.key;
  });
  await page.evaluate(() => window.tcx.views.main.reveal(window.tcx.views.main.view.nodes[0].key));
  const at = await nodeCentre(page, key);
  await page.mouse.click(at.x, at.y);
  await page.waitForFunction((k) => window.tcx.state.details && window.tcx.state.details.key === k, key, { timeout: 30000 });
  await idle(page);
  const s = await page.evaluate(() => ({
    details: document.getElementById('details').textContent,
    kernel: window.tcx.state.details.kernel,
    marked: [...document.querySelectorAll('#kernel-table tbody tr.selected')].map((tr) => tr.dataset.key),
    inView: [...window.tcx.views.main.marks.selected],
    counterparts: window.tcx.state.details.counterparts,
    hash: window.location.hash,
  }));
  check('click selects ' + key, s.details.includes(key), 'details show ' + s.details.slice(0, 80));
  check('selection marked in the view', s.inView.includes(s.counterparts.computation), JSON.stringify(s.inView));
  if (s.kernel) check('its kernel row marked', s.marked.includes(s.kernel), s.kernel + ' in ' + JSON.stringify(s.marked));
  else check('its kernel row marked', false, 'details name no kernel (kernels: ' + kernelOps.length + ')');
  check('selection in the URL', s.hash.includes('sel=' + key), s.hash);
  const source = await page.evaluate(() => ({
    unavailable: document.getElementById('source').classList.contains('unavailable'),
    marked: document.querySelectorAll('#source .line.marked').length,
    label: document.getElementById('source-label').textContent,
  }));
  if (source.unavailable) note('no CUDA for this model: no source lines to mark');
  else {
    check('its kernel\'s CUDA lines marked', source.marked > 0, source.marked + ' lines');
    check('what its buffer slots hold', source.label.includes('b.p[0] = '), source.label);
  }
  if (s.counterparts.kernels) {
    await showTab(page, 'kernels');
    const marked = await page.evaluate(() => [...window.tcx.views.main.marks.selected]);
    check('linked into the kernels view', marked.includes(s.counterparts.kernels), JSON.stringify(marked));
  }
  return key;
}

// The kernel table sorts by the column whose header is clicked (the baseline plan: one kernel per op).
async function checkKernelSort(page) {
  await page.selectOption('#plan', 'baseline');
  await page.waitForTimeout(50);
  await idle(page);
  const times = () => page.$$eval('#kernel-table tbody tr', (rows) => {
    const column = [...document.querySelectorAll('#kernel-table thead th')].findIndex((th) => th.textContent.startsWith('time'));
    return rows.map((tr) => parseFloat(tr.children[column].textContent));
  });
  const header = page.locator('#kernel-table thead th', { hasText: 'time' });
  await header.click();
  const up = await times();
  await header.click();
  const down = await times();
  const sorted = (list, sign) => list.every((v, i) => i === 0 || sign * (v - list[i - 1]) >= 0);
  if (up.length < 2) note('one kernel in the baseline plan: nothing to sort');
  else check('kernel table sorts by time', sorted(up, 1) && sorted(down, -1), up.join(' ') + ' / ' + down.join(' '));
  await page.selectOption('#plan', 'optimized');
  await page.waitForTimeout(50);
  await idle(page);
}

async function checkConstraints(page) {
  const before = await strategyState(page);
  const edge = before.edges.find((e) => e.chosen && e.saving > 0) || before.edges.find((e) => e.chosen);
  if (!check('a chosen VTOG edge to constrain', Boolean(edge), before.edges.length + ' edges')) return null;
  await setEdge(page, edge.id, 'forbidden');
  const forbidden = await strategyState(page);
  check(`forbid ${edge.id}`, !forbidden.errorShown && forbidden.edges.find((e) => e.id === edge.id).state === 'forbidden',
    forbidden.error || JSON.stringify(forbidden.constraints));
  check('  latency chart changed', JSON.stringify(forbidden.chart) !== JSON.stringify(before.chart),
    before.chart.map((v) => v.toFixed(2)).join(' ') + ' -> ' + forbidden.chart.map((v) => v.toFixed(2)).join(' '));
  await setEdge(page, edge.id, 'forced');
  const forced = await strategyState(page);
  check(`force ${edge.id}`, !forced.errorShown && forced.edges.find((e) => e.id === edge.id).state === 'forced',
    forced.error || JSON.stringify(forced.constraints));
  check('  latency chart changed', JSON.stringify(forced.chart) !== JSON.stringify(forbidden.chart),
    forbidden.chart.map((v) => v.toFixed(2)).join(' ') + ' -> ' + forced.chart.map((v) => v.toFixed(2)).join(' '));
  const hash = await page.evaluate(() => window.location.hash);
  check('  constraints in the URL', hash.includes('forced=' + edge.id), hash);
  return edge.id;
}

// Contradictions the core rejects: the error bar shows the server's message and the strategy stays.
async function checkContradictions(page, forcedId) {
  const before = await strategyState(page);
  const pair = before.edges.find((e) => e.id !== forcedId && e.conflicts.length && e.state === 'auto' &&
    before.edges.some((o) => e.conflicts.includes(o.id) && o.state === 'auto'));
  if (pair) {
    const other = pair.conflicts.find((id) => before.edges.find((o) => o.id === id).state === 'auto');
    await setEdge(page, pair.id, 'forced');
    await setEdge(page, other, 'forced');
    const after = await strategyState(page);
    const text = await page.textContent('#error-text');
    const kept = after.edges.find((e) => e.id === other).state === 'auto';
    check(`forcing conflicting ${pair.id} and ${other} shows #error`, after.errorShown && text.trim().length > 0 && kept, text.trim());
    await page.click('#error-close');
    await setEdge(page, pair.id, 'auto');
  } else {
    note('no conflicting pair of VTOG edges in this model');
  }
  // Through the URL: the same edge forced and forbidden.
  const good = await strategyState(page);
  const hash = await page.evaluate(() => window.location.hash);
  const id = good.edges[0].id;
  const bad = hash.replace(/&?(forced|forbidden|accepted)=[^&]*/g, '').replace(/&model=/, `&forced=${id}&forbidden=${id}&model=`);
  await page.evaluate((h) => { window.location.hash = h; }, bad);
  await page.waitForFunction(() => !document.getElementById('error').hidden, null, { timeout: 30000 });
  await idle(page);
  const after = await strategyState(page);
  check(`${id} forced and forbidden (from the URL) shows #error`, after.errorShown && Boolean(after.error), after.error);
  check('  strategy kept', JSON.stringify(after.constraints) === JSON.stringify(good.constraints), JSON.stringify(after.constraints));
  await page.click('#error-close');
}

async function checkReload(page, forcedId) {
  const [hash, selection] = await page.evaluate(() => [window.location.hash, window.tcx.state.selection]);
  await page.reload();
  await idle(page);
  const s = await page.evaluate(() => ({
    forced: window.tcx.state.strategy.constraints.forced, view: window.tcx.state.view, sel: window.tcx.state.selection,
  }));
  check('reload restores the link ' + hash, s.forced.includes(forcedId) && s.sel === selection && hash.includes('view=' + s.view),
    JSON.stringify(s));
}

async function waitJob(page, states, timeout) {
  await page.waitForFunction((wanted) => wanted.includes(document.getElementById('job-progress').dataset.state), states, { timeout });
  return page.evaluate(() => ({ ...document.getElementById('job-progress').dataset }));
}

async function checkJobs(page) {
  const programs = await page.$$eval('#superopt-program option', (options) => options.length);
  if (!check('superopt programs listed', programs > 0, programs + ' programs')) return;
  await page.fill('#superopt-seconds', '2');
  await page.click('#superopt-start');
  const seen = new Set();
  const started = Date.now();
  let last = null;
  while (Date.now() - started < 180000) {
    last = await page.evaluate(() => ({ ...document.getElementById('job-progress').dataset }));
    seen.add(last.state + ':' + last.percent);
    if (['done', 'failed', 'cancelled'].includes(last.state)) break;
    await page.waitForTimeout(100);
  }
  const sawRunning = [...seen].some((s) => s.startsWith('running'));
  check('superopt (2 s) shows progress', sawRunning, [...seen].slice(0, 8).join(' '));
  check('superopt ends done', last.state === 'done', JSON.stringify(last));
  check('  candidates table shown', await page.isVisible('#superopt-result'));

  await page.fill('#superopt-seconds', '60');
  await page.click('#superopt-start');
  await waitJob(page, ['running'], 30000);
  await page.click('#job-cancel');
  const end = await waitJob(page, ['cancelled', 'done', 'failed'], 60000);
  check('superopt cancelled', end.state === 'cancelled', JSON.stringify(end));

  const profile = await page.evaluate(() => ({
    gpu: window.tcx.state.status.gpu, disabled: document.getElementById('profile-start').disabled,
    reason: document.getElementById('profile-reason').textContent,
  }));
  if (!profile.gpu.available) check('Profile disabled without a GPU, with the reason', profile.disabled && profile.reason.length > 0, profile.reason);
  else note('GPU available (' + profile.gpu.describe + '): Profile enabled, not run here');
}

async function checkSearch(page) {
  await showTab(page, 'computation');
  const label = await page.evaluate(() => window.tcx.views.main.view.nodes.find((n) => n.key.startsWith('node:')).label.split('\n')[0]);
  await page.fill('#search', label);
  await page.press('#search', 'Enter');
  await page.waitForFunction(() => window.tcx.state.search.matches.length > 0, null, { timeout: 30000 });
  await idle(page);
  const s = await page.evaluate(() => ({
    matches: window.tcx.state.search.matches.length, highlighted: window.tcx.views.main.marks.highlighted.size, sel: window.tcx.state.selection,
  }));
  check(`search "${label}" highlights and selects`, s.matches > 0 && s.highlighted > 0 && Boolean(s.sel), JSON.stringify(s));
  await page.fill('#search', '');
  await page.press('#search', 'Enter');
  await idle(page);
}

async function checkUpload(page, rel) {
  await page.setInputFiles('#upload', path.join(REPO, rel));
  const name = path.basename(rel, '.onnx');
  await page.waitForFunction((n) => window.tcx.state.model && window.tcx.state.model.name === n || window.tcx.state.lastError, name, { timeout: OPEN_TIMEOUT });
  await idle(page);
  const s = await canvasState(page);
  check('upload ' + rel, !s.error && s.drawn > 0, s.error || s.drawn + ' nodes drawn');
}

async function checkSideBySide(page) {
  await showTab(page, 'vtog');
  await page.check('#side-by-side');
  await page.waitForFunction(() => window.tcx.views.side.shown === 'pointsto', null, { timeout: 30000 });
  await idle(page);
  const s = await canvasState(page, 'graph-side');
  check('side by side: points-to beside the VTOG', s.nodes > 0 && s.painted > 0, s.nodes + ' nodes');
  await page.uncheck('#side-by-side');
}

async function checkExports(page) {
  const [svg] = await Promise.all([page.waitForEvent('download'), page.click('#export-svg')]);
  const text = fs.readFileSync(await svg.path(), 'utf8');
  check('export SVG', text.startsWith('<svg') && text.includes('</svg>'), svg.suggestedFilename() + ', ' + text.length + ' bytes');
  const [png] = await Promise.all([page.waitForEvent('download'), page.click('#export-png')]);
  const bytes = fs.readFileSync(await png.path());
  check('export PNG', bytes.subarray(1, 4).toString() === 'PNG', png.suggestedFilename() + ', ' + bytes.length + ' bytes');
}

// Requests a page could make that the server must refuse.
async function checkSecurity(page) {
  const answers = await page.evaluate(async () => {
    const ask = async (url, body) => {
      const r = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });
      let json = null;
      try { json = await r.json(); } catch (e) { /* the status is what counts */ }
      return { status: r.status, error: json && json.error };
    };
    return {
      badJson: await ask('/api/open', '{"path": "samples/'),
      escape: await ask('/api/open', JSON.stringify({ path: '../../../etc/passwd' })),
      escapeInside: await ask('/api/open', JSON.stringify({ path: 'samples/../../etc/passwd' })),
    };
  });
  check('POST with bad JSON answers 400', answers.badJson.status === 400 && Boolean(answers.badJson.error), JSON.stringify(answers.badJson));
  check('open ../ answers 403', answers.escape.status === 403, JSON.stringify(answers.escape));
  check('open samples/../../ answers 403', answers.escapeInside.status === 403, JSON.stringify(answers.escapeInside));
}

async function checkToken(browser, sample) {
  const server = startServer(['--token', 'sesame']);
  try {
    const base = await server.url;
    const page = await browser.newPage({ viewport: VIEWPORT });
    await page.goto(base + '?token=sesame');
    await idle(page);
    const ms = await openByPath(page, sample);
    const s = await page.evaluate(async () => ({
      error: window.tcx.state.lastError, plain: (await fetch('/api/status')).status,
    }));
    check('token: the page passes ?token= on', !s.error, s.error || 'opened in ' + ms + ' ms');
    check('token: a request without it is refused', s.plain === 401 || s.plain === 403, 'status ' + s.plain);
    await page.close();
  } finally {
    stopServer(server);
  }
}

async function checkReport(browser, sample) {
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'tcx-report-')), 'report.html');
  execFileSync(TCX, ['report', path.join(REPO, sample), '--html', out], { cwd: REPO, stdio: 'inherit', timeout: OPEN_TIMEOUT });
  const page = await browser.newPage({ viewport: VIEWPORT });
  page.on('pageerror', (e) => check('  report: no script error', false, e.message));
  const requests = [];
  page.on('request', (r) => { if (!r.url().startsWith('file:') && !r.url().startsWith('data:')) requests.push(r.url()); });
  await page.goto('file://' + out);
  await idle(page);
  check('report opens from file://', await page.isVisible('#readonly-label'), out);
  for (const view of await viewsOf(page)) {
    await showTab(page, view);
    const s = await canvasState(page);
    check(`  report ${view} drawn`, s.nodes > 0 && s.drawn > 0 && !s.error, `${s.nodes} nodes${s.error ? ', error ' + s.error : ''}`);
  }
  const s = await page.evaluate(() => ({
    selects: [...document.querySelectorAll('#strategy-table select')].every((e) => e.disabled),
    open: document.getElementById('open-button').disabled,
    superopt: document.getElementById('superopt-start').disabled,
    kernels: document.querySelectorAll('#kernel-table tbody tr').length,
  }));
  check('  report is read-only', s.selects && s.open && s.superopt, JSON.stringify(s));
  check('  report kernel table filled', s.kernels > 0, s.kernels + ' rows');
  await showTab(page, 'computation');
  const key = await page.evaluate(() => window.tcx.views.main.view.nodes[0].key);
  await page.evaluate((k) => window.tcx.select(k), key);
  await idle(page);
  const details = await page.textContent('#details');
  check('  report details of ' + key, details.includes(key), details.slice(0, 80));
  const label = await page.evaluate(() => window.tcx.views.main.view.nodes.find((n) => n.key.startsWith('node:')).label.split('\n')[0]);
  await page.fill('#search', label);
  await page.press('#search', 'Enter');
  await idle(page);
  const found = await page.evaluate(() => window.tcx.state.search.matches.length);
  check(`  report search "${label}" (in the page)`, found > 0, found + ' matches');
  check('  report made no network request', requests.length === 0, requests.slice(0, 3).join(' '));
  await page.close();
}

// Frame times of the main view, each frame drawn at once and timed: 30 pans fitted, 30 at 1:1 around its middle
// node (where labels are drawn), then 30 zoom steps in and out from fitted.
async function measurePans(page, label) {
  const frames = (zoomed) => page.evaluate(async (zoom) => {
    const pane = window.tcx.views.main;
    pane.fit();
    if (zoom) {
      const [x, y, w, h] = pane.view.nodes[Math.floor(pane.view.nodes.length / 2)].box;
      const { width, height } = pane.size();
      pane.setTransform(width / 2 - (x + w / 2), height / 2 - (y + h / 2), 1);
    }
    const nextFrame = () => new Promise((r) => requestAnimationFrame(() => r()));
    await nextFrame();
    const times = [];
    for (let i = 0; i < 30; i++) {
      pane.panBy(i % 2 ? -37 : 41, i % 3 ? 23 : -29);
      times.push(window.tcx.lastRenderMs);
      await nextFrame();
    }
    return { nodes: pane.view.nodes.length, drawn: pane.drawnNodes, mean: times.reduce((a, b) => a + b, 0) / times.length, max: Math.max(...times) };
  }, zoomed);
  const zooms = () => page.evaluate(async () => {
    const pane = window.tcx.views.main;
    pane.fit();
    const nextFrame = () => new Promise((r) => requestAnimationFrame(() => r()));
    await nextFrame();
    const times = [];
    for (let i = 0; i < 30; i++) {
      pane.zoomBy(i < 15 ? 1.2 : 1 / 1.2);
      pane.draw();
      times.push(window.tcx.lastRenderMs);
      await nextFrame();
    }
    return { mean: times.reduce((a, b) => a + b, 0) / times.length, max: Math.max(...times) };
  });
  const result = [];
  for (const zoomed of [false, true]) {
    const f = await frames(zoomed);
    result.push(f);
    check(`pan frame time of ${label}, ${zoomed ? 'at 1:1' : 'fitted'}`, f.mean < 50,
      `${f.mean.toFixed(2)} ms mean, ${f.max.toFixed(2)} ms max over 30 pans, ${f.nodes} nodes (${f.drawn} in view)`);
  }
  const z = await zooms();
  check(`zoom frame time of ${label}`, z.mean < 50, `${z.mean.toFixed(2)} ms mean, ${z.max.toFixed(2)} ms max over 30 steps`);
  await page.waitForFunction(() => window.tcx.views.main.complete, null, { timeout: OPEN_TIMEOUT });
  return result;
}

// Open time of the largest committed model (its computation view included) and the frame time of panning it.
async function measure(page, largest) {
  if (!largest) return;
  await showTab(page, 'computation');
  const ms = await openByPath(page, largest.rel);
  const error = await page.evaluate(() => window.tcx.state.lastError);
  check(`open the largest model ${largest.rel} (${(largest.size / 1e6).toFixed(2)} MB)`, !error, error || ms + ' ms');
  await measurePans(page, largest.rel);
}

// A long strategy table keeps only the rows near its window in the page, and selecting an edge far down still
// marks its row and scrolls it into view.
async function checkLongTable(page) {
  const edges = await page.evaluate(() => window.tcx.state.strategy.edges.map((e) => e.key));
  const far = edges[edges.length - 5];
  await page.evaluate((key) => window.tcx.select(key), far);
  await idle(page);
  const s = await page.evaluate((key) => {
    const scroller = document.getElementById('strategy-table').closest('.scroll');
    const row = document.querySelector(`#strategy-table tr[data-key="${key}"]`);
    const box = row && row.getBoundingClientRect();
    const view = scroller.getBoundingClientRect();
    return {
      rows: document.querySelectorAll('#strategy-table tbody tr:not(.filler)').length,
      selected: Boolean(row && row.classList.contains('selected')),
      visible: Boolean(box && box.bottom > view.top && box.top < view.bottom),
    };
  }, far);
  check(`  strategy table of ${edges.length} edges draws ${s.rows} rows`, edges.length > 300 && s.rows < edges.length, JSON.stringify(s));
  check(`  selecting ${far} marks its row in view`, s.selected && s.visible, JSON.stringify(s));
}

// The sizes: a 1,000-op export opened (about 2 s asked), and a 10,000-op graph drawn expanded and panned.
async function measureLarge(page) {
  if (!SAMPLES_TOOL) {
    note('no tcx-samples given: the 1,000-op and 10,000-op timings are skipped');
    return;
  }
  const dir = path.join(path.dirname(TCX), '..', '..', 'web-test-models');
  const rel = (file) => path.relative(REPO, path.join(dir, file));
  if (rel('x').startsWith('..')) {
    note('the build tree is not under ' + REPO + ': the 1,000-op and 10,000-op timings are skipped');
    return;
  }
  execFileSync(SAMPLES_TOOL, ['--out', dir, '--llama-layers', '22']);
  execFileSync(SAMPLES_TOOL, ['--out', dir, '--stack-ops', '10000']);
  await showTab(page, 'computation');
  const llama = rel('llama3_decode_22layers.onnx');
  // The page loads the model once: the server's push of the page's own open must not load it again.
  const strategyReads = [];
  const count = (request) => { if (request.url().includes('/api/strategy')) strategyReads.push(request.url()); };
  page.on('request', count);
  const ms = await openByPath(page, llama);
  page.off('request', count);
  const ops = await page.evaluate(() => window.tcx.state.model && window.tcx.state.model.ops);
  const error = await page.evaluate(() => window.tcx.state.lastError);
  check(`open the 1,000-op model ${llama} (${ops} ops)`, !error && ops >= 1000 && ms < 10000, error || ms + ' ms');
  check('  its strategy read once', strategyReads.length === 1, strategyReads.length + ' reads');
  await checkLongTable(page);
  const stack = rel('op_stack_10000ops.onnx');
  const openMs = await openByPath(page, stack);
  const started = Date.now();
  await page.click('#expand-all');
  await page.waitForFunction(() => window.tcx.views.main.view && window.tcx.views.main.view.nodes.length >= 10000, null,
    { timeout: OPEN_TIMEOUT });
  await idle(page);
  await page.waitForFunction(() => window.tcx.views.main.complete, null, { timeout: OPEN_TIMEOUT });
  check(`the 10,000-op graph ${stack} expanded`, true, `opened in ${openMs} ms, expanded and drawn in ${Date.now() - started} ms`);
  await measurePans(page, 'the 10,000-op graph expanded');
}

async function main() {
  const { samples, largest } = findModels();
  if (!samples.length) throw new Error('no samples/*.onnx under ' + REPO);
  const server = startServer();
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
  try {
    const base = await server.url;
    note('server ' + base);
    const page = await browser.newPage({ viewport: VIEWPORT });
    page.on('pageerror', (e) => check('no script error', false, e.message));
    await page.goto(base);
    await idle(page);
    check('page ready', true);
    await step('security', () => checkSecurity(page));
    await step('samples', () => checkSamples(page, samples));
    const sample = pickSample(samples);
    if (process.env.TCX_SCREENSHOTS) await step('screenshots', () => checkScreenshots(page, sample));
    await step('open ' + sample, () => openByPath(page, sample));
    await step('selection', () => checkSelection(page));
    await step('search', () => checkSearch(page));
    await step('kernel table', () => checkKernelSort(page));
    await step('side by side', () => checkSideBySide(page));
    await step('export', () => checkExports(page));
    await step('save report', async () => {
      const [download] = await Promise.all([page.waitForEvent('download', { timeout: 60000 }), page.click('#save-report')]);
      const html = fs.readFileSync(await download.path(), 'utf8');
      check('save the page as a report', html.includes('window.TCX_SNAPSHOT') && !html.includes('<script src='),
        download.suggestedFilename() + ', ' + html.length + ' bytes');
    });
    let forcedId = null;
    await step('constraints', async () => { forcedId = await checkConstraints(page); });
    await step('contradictions', () => checkContradictions(page, forcedId));
    if (forcedId) await step('reload', () => checkReload(page, forcedId));
    await step('jobs', () => checkJobs(page));
    await step('upload', () => checkUpload(page, sample));
    await step('timing', () => measure(page, largest));
    await step('large graphs', () => measureLarge(page));
    await page.close();
    await step('token', () => checkToken(browser, sample));
    await step('report', () => checkReport(browser, sample));
  } finally {
    await browser.close();
    stopServer(server);
  }
  console.log(failures ? failures + ' check(s) failed' : 'all checks passed');
  process.exit(failures ? 1 : 0);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});

// Usage: HARK_BIN=target/release/hark HARK_E2E_WEB_DIR=web/dist node bench/web/media-wall-frames.mjs [--web-dir DIR] [--bin PATH] [--seconds N]
//
//   HARK_BIN          server binary (or --bin; default target/release/hark, then target/debug/hark)
//   HARK_E2E_WEB_DIR  built web app (or --web-dir; default web/dist)
//   CHROMIUM_PATH     browser (default /usr/bin/chromium)
//
// Frame times of the media wall holding 500 posts: starts `hark serve` on a fresh data directory
// and a free port, creates a tracker with 500 posts with media (the demo tracker is read-only, so
// no new posts could arrive on its wall), saves
// the wall settings (500 posts, grid, refresh every 20 s) as the instance's first account, opens
// the wall at 1440x1000 and, while it refreshes (new posts imported before each refresh so they
// animate in), records requestAnimationFrame deltas and long animation frames / long tasks: first
// with the grid still, as a wall on a screen is shown, then with the grid scrolled, then the
// slideshow. Prints one block per mode.
//
// The first mount (from the page's start until the wall shows all its posts, plus 1.5 s) is
// reported on its own line; the frames over 50 ms of the measured window are split into those
// within 2 s after a wall request answered (a refresh) and the others. The grid mounts
// only the cards near the screen: "cards in the DOM" counts those, "posts on the wall" the wall's.
import { spawn, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const require = createRequire(path.join(root, 'web/package.json'));
const { chromium } = require('playwright-core');

const argv = process.argv.slice(2);
const arg = (name) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};
const bin = path.resolve(
  arg('--bin') ??
    process.env.HARK_BIN ??
    [path.join(root, 'target/release/hark'), path.join(root, 'target/debug/hark')].find(existsSync) ??
    'target/release/hark',
);
// A relative web dir is read from where the command runs (`web/dist` from the repository root), or else
// from web/ as the browser tests read it (`dist`).
const webDirArg = arg('--web-dir') ?? process.env.HARK_E2E_WEB_DIR ?? 'dist';
const webDir = [path.resolve(webDirArg), path.resolve(root, 'web', webDirArg)].find((d) => existsSync(path.join(d, 'index.html'))) ?? path.resolve(root, 'web', webDirArg);
const gridSeconds = Number(arg('--seconds') ?? 45);
const slideSeconds = Number(arg('--slide-seconds') ?? 30);
const TARGET = 500;
const FREQUENCY = 20;

if (!existsSync(bin)) throw new Error(`server binary not found at ${bin} (set HARK_BIN)`);
if (!existsSync(path.join(webDir, 'index.html'))) throw new Error(`web app not built at ${webDir} (set HARK_E2E_WEB_DIR)`);

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function waitUntil(check, { timeoutMs = 60_000, what = 'condition' } = {}) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const v = await check();
      if (v) return v;
    } catch {
      // try again
    }
    await sleep(250);
  }
  throw new Error(`timed out waiting for ${what}`);
}

async function startServer() {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'hark-bench-wall-'));
  const child = spawn(bin, ['serve', '--bind', `127.0.0.1:${port}`, '--data-dir', dataDir, '--web-dir', webDir, '--no-demo'], {
    env: { ...process.env, RUST_LOG: process.env.RUST_LOG ?? 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs = [];
  child.stdout.on('data', (d) => logs.push(String(d)));
  child.stderr.on('data', (d) => logs.push(String(d)));
  const url = `http://127.0.0.1:${port}`;
  await waitUntil(
    async () => {
      if (child.exitCode !== null) throw new Error(`server exited: ${logs.join('')}`);
      return (await fetch(`${url}/api/v1/health`)).ok;
    },
    { what: 'server health' },
  );
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      const t = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(t);
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  return { url, stop, logs };
}

/** JSON API call with the context's cookies and CSRF token (as the e2e harness does). */
async function api(ctx, baseUrl, method, p, body, raw) {
  let token = (await ctx.cookies(baseUrl)).find((c) => c.name === 'hark_csrf')?.value;
  if (!token) {
    await ctx.request.get(`${baseUrl}/api/v1/me`);
    token = (await ctx.cookies(baseUrl)).find((c) => c.name === 'hark_csrf')?.value;
  }
  const res = await ctx.request.fetch(`${baseUrl}/api/v1${p}`, {
    method,
    headers: { 'X-CSRF-Token': token ?? '', ...(raw ? { 'Content-Type': 'application/x-ndjson' } : {}) },
    data: raw ?? body,
  });
  const text = await res.text();
  let parsed = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = null;
  }
  return { status: res.status(), body: parsed };
}

let nextId = 9_000_000;
function mediaPosts(n, prefix) {
  const now = Date.now();
  return Array.from({ length: n }, (_, i) => {
    const id = nextId++;
    return {
      platform: 'twitter',
      id: String(id),
      text: `${prefix} ${id} #bench with a few words of text to lay out on the card`,
      createdAt: now - i * 1000,
      author: { username: `bench${id}`, name: `Bench ${id}` },
      counts: { likes: i % 50, retweets: i % 7, replies: 1 },
      media: [{ kind: 'photo', url: `/demo-media/photo/bench-${id % 97}.svg` }],
    };
  });
}
const ndjson = (list) => list.map((p) => JSON.stringify(p)).join('\n') + '\n';

async function importPosts(ctx, url, hash, n, prefix) {
  for (let left = n; left > 0; left -= 100) {
    const r = await api(ctx, url, 'POST', `/trackers/${hash}/import?format=ndjson`, undefined, ndjson(mediaPosts(Math.min(100, left), prefix)));
    if (r.status >= 300) throw new Error(`import: ${r.status} ${JSON.stringify(r.body)}`);
  }
}

/** Installed before the page's own scripts: frame deltas and long frames / tasks from then on. */
function recorder() {
  const w = window;
  // Recording from the start: the first mount is read (and cleared) once the wall is filled.
  w.__bench = { deltas: [], at: [], long: [], longKind: null, recording: true, refreshes: [] };
  let last = 0;
  const tick = (t) => {
    if (w.__bench.recording && last) {
      w.__bench.deltas.push(t - last);
      w.__bench.at.push(t);
    }
    last = t;
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
  const supported = PerformanceObserver.supportedEntryTypes || [];
  const kind = supported.includes('long-animation-frame') ? 'long-animation-frame' : supported.includes('longtask') ? 'longtask' : null;
  w.__bench.longKind = kind;
  if (kind) {
    new PerformanceObserver((list) => {
      if (!w.__bench.recording) return;
      for (const e of list.getEntries()) w.__bench.long.push(e.duration);
    }).observe({ type: kind, buffered: false });
  }
  // When each answer of the wall's data request arrived (the refreshes).
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (/\/api\/v1\/trackers\/[^/]+\/media-wall(\?|$)/.test(e.name)) w.__bench.refreshes.push(e.responseEnd);
  }).observe({ type: 'resource', buffered: true });
}

/** In the page: how many posts the wall says it shows ("Live · 500 posts"). */
function wallCount() {
  const m = /Live · (\d+) post/.exec(document.querySelector('[data-testid="wall-status"]')?.textContent ?? '');
  return m ? Number(m[1]) : null;
}

const pct = (sorted, p) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : 0);
const ms = (v) => `${v.toFixed(1)} ms`;

async function measure(page, { seconds, scroll, onRefresh }) {
  const started0 = await page.evaluate(() => {
    window.__bench.deltas = [];
    window.__bench.at = [];
    window.__bench.long = [];
    window.__bench.recording = true;
    return performance.now();
  });
  const started = Date.now();
  const end = started + seconds * 1000;
  let refreshes = 0;
  // New posts land a few seconds before each refresh (every FREQUENCY s from the page's load).
  let nextImport = started + (FREQUENCY - 6) * 1000;
  let dir = 1;
  while (Date.now() < end) {
    if (Date.now() >= nextImport) {
      await onRefresh();
      refreshes++;
      nextImport += FREQUENCY * 1000;
    }
    if (scroll) {
      // Scroll the grid down and back up, a wheel step at a time.
      await page.mouse.wheel(0, dir * 600);
      const y = await page.evaluate(() => [window.scrollY, document.documentElement.scrollHeight - window.innerHeight]);
      if (dir > 0 && y[0] >= y[1] - 5) dir = -1;
      else if (dir < 0 && y[0] <= 0) dir = 1;
      await sleep(120);
    } else {
      await sleep(250);
    }
  }
  const r = await page.evaluate(() => {
    window.__bench.recording = false;
    const mem = performance.memory;
    return {
      deltas: window.__bench.deltas,
      at: window.__bench.at,
      long: window.__bench.long,
      longKind: window.__bench.longKind,
      answers: window.__bench.refreshes,
      nodes: document.getElementsByTagName('*').length,
      heap: mem ? mem.usedJSHeapSize : null,
      cards: document.querySelectorAll('[data-testid="wall-grid"] article[data-post-key]').length,
    };
  });
  r.onWall = await page.evaluate(wallCount);
  // Frames over 50 ms that ended within 2 s after an answer of the wall's request (a refresh).
  const answers = r.answers.filter((t) => t >= started0);
  const nearRefresh = r.deltas.filter((d, i) => d > 50 && answers.some((t) => r.at[i] >= t && r.at[i] - t <= 2000)).length;
  return { ...r, refreshes, nearRefresh };
}

/** Reads (and clears) what was recorded from the page's start: the first mount. */
async function firstMount(page) {
  return page.evaluate(() => {
    const b = window.__bench;
    const r = { deltas: b.deltas, long: b.long, filledAt: performance.now() };
    b.deltas = [];
    b.at = [];
    b.long = [];
    return r;
  });
}

function reportMount(r) {
  const sorted = [...r.deltas].sort((a, b) => a - b);
  const over = sorted.filter((d) => d > 50);
  console.log(
    `  first mount:          ${sorted.length} frames until filled + 1.5 s (${ms(r.filledAt)} after navigation), ${over.length} over 50 ms, max ${ms(sorted.at(-1) ?? 0)}; ${r.long.length} long frames, ${ms(r.long.reduce((a, b) => a + b, 0))}`,
  );
}

function report(label, r) {
  const sorted = [...r.deltas].sort((a, b) => a - b);
  const longTotal = r.long.reduce((a, b) => a + b, 0);
  const lines = [
    `${label}`,
    `  frames:               ${sorted.length}`,
    `  frame time median:    ${ms(pct(sorted, 50))}`,
    `  frame time p95:       ${ms(pct(sorted, 95))}`,
    `  frame time p99:       ${ms(pct(sorted, 99))}`,
    `  frame time max:       ${ms(sorted.at(-1) ?? 0)}`,
    `  frames over 50 ms:    ${sorted.filter((d) => d > 50).length} (${r.nearRefresh} within 2 s after a refresh, ${sorted.filter((d) => d > 50).length - r.nearRefresh} other)`,
    `  ${(r.longKind ?? 'long tasks (unsupported)').padEnd(21)} ${r.long.length} entries, ${ms(longTotal)} total`,
    `  posts on the wall:    ${r.onWall ?? 'n/a'}`,
    `  cards in the DOM:     ${r.cards}`,
    `  refreshes with new posts: ${r.refreshes}`,
    `  DOM nodes:            ${r.nodes}`,
    `  JS heap used:         ${r.heap === null ? 'n/a' : `${(r.heap / 1024 / 1024).toFixed(1)} MB`}`,
  ];
  console.log(lines.join('\n'));
}

const server = await startServer();
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--enable-precise-memory-info'],
});
try {
  const ctx = await browser.newContext({ viewport: { width: 1440, height: 1000 } });
  const owner = { email: 'bench@example.com', password: 'correct horse battery', name: 'Bench Owner' };
  const setup = await api(ctx, server.url, 'POST', '/setup', owner);
  if (setup.status !== 201) throw new Error(`setup: ${setup.status} ${JSON.stringify(setup.body)}`);
  // The demo tracker is read-only (no posts can be imported into it, so none would arrive between
  // refreshes): the wall is a twitter tracker of the account's own, seeded with 500 posts with media.
  const t = await api(ctx, server.url, 'POST', '/trackers', { title: 'Bench wall', platforms: { twt: 1 }, search: { rows: [{ type: '+', searches: ['bench'] }] } });
  if (t.status !== 201) throw new Error(`tracker: ${t.status} ${JSON.stringify(t.body)}`);
  const demo = t.body;
  const wallApi = `/trackers/${demo.hash}/media-wall`;
  const have = (await api(ctx, server.url, 'GET', `${wallApi}?count=500`)).body.posts.length;
  if (have < TARGET) await importPosts(ctx, server.url, demo.hash, TARGET - have, 'Bench seed');
  const settings = { displayMode: 'grid', theme: 'dark', displayText: true, updateFrequency: FREQUENCY, postCount: TARGET, sortBy: 'date', excludeRetweets: false, excludeUsers: [] };
  const saved = await api(ctx, server.url, 'PUT', `${wallApi}/settings`, settings);
  if (saved.status !== 200) throw new Error(`settings: ${saved.status} ${JSON.stringify(saved.body)}`);
  const onWall = (await api(ctx, server.url, 'GET', wallApi)).body.posts.length;

  const version = (() => {
    try {
      return execFileSync(bin, ['--version'], { encoding: 'utf8' }).trim();
    } catch {
      return path.basename(bin);
    }
  })();
  const debug = /[/\\]debug[/\\]/.test(bin) || process.env.HARK_BENCH_DEBUG === '1';
  console.log(`media wall frame times — ${version} (${bin}${debug ? ', a debug build' : ''}), Chromium ${browser.version()}, 1440x1000, headless, --disable-gpu`);
  console.log(`tracker 'Bench wall': ${have} posts with media before, ${onWall} on the wall; settings postCount=${TARGET}, updateFrequency=${FREQUENCY}s`);

  await ctx.addInitScript(recorder);
  const wallUrl = `${server.url}/hashtag-tracking/media-wall/${demo.hash}/${demo.friendly}`;
  // The grid twice: still, as a wall shown on a screen is (the refreshes alone), then scrolled.
  for (const [mode, scroll] of [['grid', false], ['grid', true], ['slideshow', false]]) {
    if (mode === 'slideshow') {
      const r = await api(ctx, server.url, 'PUT', `${wallApi}/settings`, { ...settings, displayMode: 'slideshow' });
      if (r.status !== 200) throw new Error(`settings: ${r.status}`);
    }
    const page = await ctx.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(wallUrl);
    if (mode === 'grid') {
      // Filled: the wall says it holds them all and its first card is in the page (a grid that
      // mounts every card mounts them in the same render).
      await waitUntil(
        async () =>
          (await page.evaluate(wallCount)) >= Math.min(onWall, TARGET) && (await page.locator('[data-testid="wall-grid"] article[data-post-key]').count()) > 0 ? true : null,
        { what: 'the grid filled' },
      );
    } else {
      await page.getByTestId('wall-slideshow').waitFor({ timeout: 60_000 });
    }
    await sleep(1500);
    const mount = await firstMount(page);
    let batch = 0;
    const r = await measure(page, {
      seconds: mode === 'grid' ? gridSeconds : slideSeconds,
      scroll,
      onRefresh: () => importPosts(ctx, server.url, demo.hash, 5, `Fresh ${mode}${scroll ? ' scrolled' : ''} ${++batch}`),
    });
    report(`${mode} (${mode === 'grid' ? gridSeconds : slideSeconds} s${mode === 'grid' ? (scroll ? ', scrolling' : ', still') : ''})`, r);
    reportMount(mount);
    if (errors.length) console.log(`  page errors: ${errors.join(' | ')}`);
    await page.close();
  }
  await ctx.close();
} finally {
  await browser.close();
  await server.stop();
}

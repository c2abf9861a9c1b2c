// Starts a real `hark serve` on a free port with a fresh data directory and the built web app,
// and launches Debian's Chromium through playwright-core.
//
//   HARK_BIN           server binary (default ../target/debug/hark from web/)
//   HARK_E2E_POSTGRES_URL  a PostgreSQL server URL: each server started gets its own fresh
//                      database on it (created here, dropped on stop) instead of SQLite
//   HARK_DATABASE_URL  passed through as is (one database shared by every server started)
//   HARK_E2E_MOCK=1    use e2e/mock-server.mjs instead (UI work while the server is not built)
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, existsSync, mkdirSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
export const webDir = path.resolve(here, '..');
export const distDir = process.env.HARK_E2E_WEB_DIR ? path.resolve(webDir, process.env.HARK_E2E_WEB_DIR) : path.join(webDir, 'dist');
export const screenshotDir = path.join(here, 'screenshots');

export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

async function waitForHealth(url, child, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  let lastErr = null;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited early with code ${child.exitCode}`);
    try {
      const res = await fetch(`${url}/api/v1/health`);
      if (res.ok) return;
      lastErr = new Error(`health answered ${res.status}`);
    } catch (e) {
      lastErr = e;
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`server not healthy after ${timeoutMs} ms: ${lastErr}`);
}

/**
 * Starts the server; returns { url, port, stop, logs, bin, dataDir, databaseUrl }. `demo: true` keeps the demo tracker (the server
 * creates it and backfills sample posts in the background); by default it runs with --no-demo.
 * `env` adds variables for this server alone (e.g. HARK_SMTP_URL from e2e/smtp.mjs).
 *
 * `reuse`: a server stopped with `stop({ keep: true })` — the new one starts on its data directory
 * (SQLite) or database (PostgreSQL), and on its port unless `port` says otherwise, as the same
 * server started again would; its own `stop()` then removes them.
 *
 * `join`: a running server on PostgreSQL — the new one serves the same database beside it, as
 * the servers of a cluster do (pass both the same HARK_SECRET_KEY in `env`); the database stays
 * the first server's to remove.
 */
export async function startServer({ demo = false, env: extraEnv = {}, reuse = null, port: wantedPort = null, join = null } = {}) {
  if (join && !join.pgDb) throw new Error('startServer({ join }) needs servers on PostgreSQL (HARK_E2E_POSTGRES_URL)');
  if (!existsSync(path.join(distDir, 'index.html'))) {
    throw new Error(`web app not built: run "npm run build" in ${webDir}`);
  }
  if (reuse && !reuse.kept) throw new Error('startServer({ reuse }) takes a server stopped with stop({ keep: true })');
  const port = wantedPort ?? reuse?.port ?? (await freePort());
  const dataDir = reuse?.dataDir ?? mkdtempSync(path.join(os.tmpdir(), 'hark-e2e-'));
  // The data is the new server's now: its stop removes it, the old one's no longer does.
  if (reuse) reuse.handedOver = true;
  const mock = process.env.HARK_E2E_MOCK === '1';
  const bin = process.env.HARK_BIN ? path.resolve(webDir, process.env.HARK_BIN) : path.resolve(webDir, '../target/debug/hark');
  const [cmd, args] = mock
    ? [process.execPath, [path.join(here, 'mock-server.mjs'), '--port', String(port), '--web-dir', distDir]]
    : [bin, ['serve', '--bind', `127.0.0.1:${port}`, '--data-dir', dataDir, '--web-dir', distDir, ...(demo ? [] : ['--no-demo'])]];
  if (!mock && !existsSync(bin)) throw new Error(`server binary not found at ${bin} (set HARK_BIN)`);

  const env = { ...process.env, ...extraEnv };
  if (!env.RUST_LOG) env.RUST_LOG = 'warn';
  // Each server starts on an empty database, as a fresh data directory gives SQLite.
  const pgAdmin = mock ? null : process.env.HARK_E2E_POSTGRES_URL;
  let pgDb = reuse?.pgDb ?? join?.pgDb ?? null;
  if (pgAdmin && !pgDb) {
    pgDb = `hark_e2e_${process.pid}_${port}`;
    execFileSync('psql', [pgAdmin, '-qc', `CREATE DATABASE ${pgDb}`]);
  }
  if (pgAdmin) env.HARK_DATABASE_URL = `${pgAdmin.split('?')[0].replace(/\/[^/]*$/, '')}/${pgDb}`;
  const dropDb = () => {
    if (pgDb && !join) {
      try {
        execFileSync('psql', [pgAdmin, '-qc', `DROP DATABASE IF EXISTS ${pgDb} WITH (FORCE)`]);
      } catch {
        // Best effort: a leftover test database does no harm.
      }
    }
  };
  const child = spawn(cmd, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const logs = [];
  child.stdout.on('data', (d) => logs.push(String(d)));
  child.stderr.on('data', (d) => logs.push(String(d)));
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitForHealth(url, child, 60_000);
  } catch (e) {
    child.kill('SIGKILL');
    dropDb();
    throw new Error(`${e.message}\n--- server output ---\n${logs.join('')}`);
  }

  const handle = { url, port, logs, bin: mock ? null : bin, dataDir, pgDb, kept: false, handedOver: false };
  /**
   * Stops the server and removes its data. `keep: true` leaves the data directory and database
   * for `startServer({ reuse })`; `signal: 'SIGKILL'` stops it as a crash would (no shutdown).
   */
  handle.stop = async ({ keep = false, signal = 'SIGTERM' } = {}) => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    }
    if (keep) {
      handle.kept = true;
      return;
    }
    if (handle.handedOver) return; // the server started on it removes it
    rmSync(dataDir, { recursive: true, force: true });
    dropDb();
  };
  // Where the server keeps its data, for tests that set up what no endpoint offers.
  handle.databaseUrl = env.HARK_DATABASE_URL ?? `sqlite://${path.join(dataDir, 'hark.db')}`;
  return handle;
}

/** Refusals of the Content-Security-Policy seen by any page of this process, and those allowed. */
const cspRefusals = [];
const cspAllowed = [];
const watched = new WeakSet();

/** A test that provokes a refusal on purpose (framing a page that may not be framed) names it here. */
export function allowCspRefusal(pattern) {
  cspAllowed.push(pattern);
}

/** The refusals seen so far, taken (a test that checks the watch itself). */
export function takeCspRefusals() {
  return cspRefusals.splice(0);
}

function watchCsp(page) {
  if (watched.has(page)) return;
  watched.add(page);
  page.on('console', (msg) => {
    const text = msg.text();
    if (msg.type() === 'error' && /Content Security Policy/.test(text) && !cspAllowed.some((p) => p.test(text))) {
      cspRefusals.push(`${page.url()}: ${text}`);
    }
  });
}

/**
 * Chromium, headless. Every page it opens is watched for refusals of the Content-Security-Policy
 * (a script, style, image or request the app needs and the policy forbids): closing the browser
 * fails when there were any.
 */
export async function launchBrowser() {
  const browser = await launchChromium();
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (...args) => {
    const ctx = await newContext(...args);
    ctx.on('page', watchCsp);
    return ctx;
  };
  const newPage = browser.newPage.bind(browser);
  browser.newPage = async (...args) => {
    const page = await newPage(...args);
    watchCsp(page);
    return page;
  };
  const close = browser.close.bind(browser);
  browser.close = async (...args) => {
    await close(...args);
    if (cspRefusals.length) {
      const seen = cspRefusals.splice(0);
      throw new Error(`the Content-Security-Policy refused what a page needed:\n${seen.join('\n')}`);
    }
  };
  return browser;
}

function launchChromium() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-quic',
      '--no-first-run',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/**
 * A JSON API call (`/api/v1` + path) with the context's cookies and CSRF token; `raw` sends an
 * NDJSON body instead of `body`. Answers `{status, body}` with the body parsed.
 */
export async function api(ctx, baseUrl, method, path, body, raw) {
  let token = (await ctx.cookies(baseUrl)).find((c) => c.name === 'hark_csrf')?.value;
  if (!token) {
    await ctx.request.get(`${baseUrl}/api/v1/me`);
    token = (await ctx.cookies(baseUrl)).find((c) => c.name === 'hark_csrf')?.value;
  }
  const res = await ctx.request.fetch(`${baseUrl}/api/v1${path}`, {
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

/** Creates the first account on the setup page and waits for the tracker list. */
export async function setupInBrowser(page, baseUrl, { name, email, password }) {
  await page.goto(baseUrl + '/setup');
  await page.getByLabel('Name').fill(name);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.waitForURL((u) => new URL(u).pathname === '/mytracks/hashtag');
}

/** Saves a full-page screenshot under e2e/screenshots/NAME.png. */
export async function shot(page, name, { fullPage = true } = {}) {
  mkdirSync(screenshotDir, { recursive: true });
  await page.screenshot({ path: path.join(screenshotDir, `${name}.png`), fullPage });
}

/** Polls `check` (async, returns a value or null) until it gives a value; throws after timeoutMs. */
export async function waitUntil(check, { timeoutMs = 60_000, intervalMs = 250, what = 'condition' } = {}) {
  const deadline = Date.now() + timeoutMs;
  let last = null;
  while (Date.now() < deadline) {
    try {
      const v = await check();
      if (v) return v;
    } catch (e) {
      last = e;
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last ? `: ${last.message}` : ''}`);
}

/**
 * Clicks the page at (x, y), outside `layer`, until the layer has gone. A dismissable layer starts
 * listening for outside clicks a task after it opens, so on a busy machine the first click can land
 * before it listens; a user would simply click again, and so does this.
 */
export async function clickOutsideUntilClosed(page, layer, { x, y, tries = 5 } = {}) {
  for (let i = 0; i < tries; i++) {
    await page.mouse.click(x, y);
    try {
      await layer.waitFor({ state: 'detached', timeout: 3_000 });
      return;
    } catch {
      // still open: click again
    }
  }
  throw new Error(`still open after ${tries} clicks outside at (${x}, ${y})`);
}

/**
 * Answers requests matching `pattern` on `page` with the server's own answer passed through
 * `change`, until the returned `release()` is called. `release()` removes the route and waits for
 * answers already being made. A request whose answer was being made when the route was removed or
 * the page closed may be answered by the browser meanwhile; that answer is left alone rather than
 * raised after the test (Playwright then reports "Route is already handled").
 */
export async function rewriteAnswers(page, pattern, change) {
  let released = false;
  const pending = new Set();
  const handler = async (route) => {
    const work = (async () => {
      try {
        const real = await (await route.fetch()).json();
        await route.fulfill({ json: change(real) });
      } catch (e) {
        const gone = released || page.isClosed() || /already handled|has been closed|Target closed/i.test(String(e?.message ?? e));
        if (!gone) throw e;
      }
    })();
    pending.add(work);
    try {
      await work;
    } finally {
      pending.delete(work);
    }
  };
  await page.route(pattern, handler);
  return async function release() {
    released = true;
    if (!page.isClosed()) await page.unroute(pattern, handler);
    await Promise.allSettled([...pending]);
  };
}

/** Posts as the NDJSON import takes them: one JSON object a line. */
export const ndjson = (list) => list.map((p) => JSON.stringify(p)).join('\n') + '\n';

/** The dashboard has settled: nothing in the loading list and no panel showing 'Loading...'. */
export async function dashboardSettled(page) {
  await page.waitForFunction(
    () => {
      const grid = document.querySelector('[data-testid="dashboard-grid"]');
      return grid && grid.getAttribute('data-loading') === '' && !grid.textContent.includes('Loading...');
    },
    null,
    { timeout: 30_000 },
  );
}

/**
 * The first account (the instance administrator) set up in `ctx`, with a twitter tracker for
 * `term` (titled `title` when given) and `posts` imported into it: `{ hash, friendly, imported }`.
 */
export async function ownerWithTracker(ctx, baseUrl, { term, title, posts, owner = { email: 'owner@example.com', password: 'correct horse battery', name: 'Olive Owner' } }) {
  const setup = await api(ctx, baseUrl, 'POST', '/setup', owner);
  if (setup.status !== 201) throw new Error(`setup: ${setup.status} ${JSON.stringify(setup.body)}`);
  const body = { platforms: { twt: 1 }, search: { rows: [{ type: '+', searches: [term] }] } };
  if (title) body.title = title;
  const t = await api(ctx, baseUrl, 'POST', '/trackers', body);
  if (t.status !== 201) throw new Error(`tracker: ${t.status} ${JSON.stringify(t.body)}`);
  const { hash, friendly } = t.body;
  const imp = await api(ctx, baseUrl, 'POST', `/trackers/${hash}/import?format=ndjson`, undefined, ndjson(posts));
  return { hash, friendly, imported: imp.body.imported };
}

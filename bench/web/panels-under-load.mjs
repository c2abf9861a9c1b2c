// Many readers of one dashboard while posts pour in: wrk's clients loop over the demo tracker's 12
// dashboard panel requests (the last 14 days, as the page asks by default) against a release server,
// while a feeder imports posts into another tracker through the import API at a steady rate.
//
// Three runs, each on a fresh server with its 40,000-post demo tracker:
//   kept answers, no writes       the answers of an unchanged tracker served from memory
//   kept answers, with the feeder the target: p99 ≤ 250 ms and no timeouts at 200 clients
//   no kept answers, with feeder  the baseline (--answer-cache-mb 0: every read computed)
//
// From the repository root, after `cargo build --release -p hark` and `make web`:
//   node bench/web/panels-under-load.mjs
// Variables: HARK_BIN (target/release/hark), HARK_E2E_WEB_DIR (web/dist), HARK_BENCH_CLIENTS (200),
// HARK_BENCH_SECONDS (30), HARK_BENCH_RATE (posts/s fed, 5000), HARK_BENCH_BATCH (posts a request,
// 1000), HARK_BENCH_SENDERS (the feeder's requests in flight at most, 16), HARK_E2E_POSTGRES_URL
// (run on PostgreSQL instead of SQLite).
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

process.env.HARK_BIN ??= path.resolve('target/release/hark');
process.env.HARK_E2E_WEB_DIR ??= path.resolve('web/dist');
const { startServer, waitUntil } = await import('../../web/e2e/harness.mjs');

const run = promisify(execFile);
const CLIENTS = Number(process.env.HARK_BENCH_CLIENTS || 200);
const SECONDS = Number(process.env.HARK_BENCH_SECONDS || 30);
const RATE = Number(process.env.HARK_BENCH_RATE || 5000);
const BATCH = Number(process.env.HARK_BENCH_BATCH || 1000);
const SENDERS = Number(process.env.HARK_BENCH_SENDERS || 16);
const PANELS = ['top-stats', 'timeline', 'locations', 'sentiments', 'devices', 'genders', 'post-types', 'viewer-sentiments', 'influencers', 'topics', 'top-pages', 'top-posts'];

/** A signed-in HTTP client of the server (its cookies kept by hand). */
async function account(base) {
  const jar = new Map();
  const keep = (res) => {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const [k, v] = pair.split('=');
      jar.set(k.trim(), v);
    }
  };
  const call = async (method, p, body, type = 'application/json') => {
    const headers = { Cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') };
    if (method !== 'GET') headers['X-CSRF-Token'] = jar.get('hark_csrf') ?? '';
    if (body !== undefined) headers['Content-Type'] = type;
    const res = await fetch(`${base}/api/v1${p}`, { method, headers, body: body === undefined ? undefined : type === 'application/json' ? JSON.stringify(body) : body });
    keep(res);
    const text = await res.text();
    return { status: res.status, body: text && res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text };
  };
  await call('GET', '/me');
  const setup = await call('POST', '/setup', { email: 'bench@example.com', password: 'correct horse battery', name: 'Bench' });
  if (setup.status !== 201) throw new Error(`setup: ${setup.status} ${JSON.stringify(setup.body)}`);
  // The readers are signed in, as the dashboard's viewers are: a request without a session is a
  // public one, held to the public rate limit (600 a minute per address), and wrk's clients
  // would measure its 429s.
  call.cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  return call;
}

/** Imports `RATE` posts a second into a tracker of its own until stopped, sending each request on
 *  schedule (open loop) with up to `SENDERS` in flight, so that a slow answer does not hold the next
 *  request back and the rate reached is the server's; returns what it fed, the rate and how far
 *  behind schedule its latest request left (all senders busy). */
function feeder(call, hash) {
  let stop = false;
  let fed = 0;
  let n = 0;
  let slip = 0;
  let lastDone = 0;
  const every = (1000 * BATCH) / RATE;
  const started = performance.now();
  const sender = async () => {
    while (!stop) {
      const k = Math.floor(n / BATCH);
      const first = n;
      n += BATCH;
      const due = started + k * every;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((res) => setTimeout(res, wait));
      if (stop) return;
      slip = Math.max(slip, performance.now() - due);
      const now = Date.now();
      const lines = [];
      for (let i = first; i < first + BATCH; i++) {
        lines.push(JSON.stringify({ platform: 'twitter', id: `feed${i}`, text: `latte number ${i} with #oatmilk`, createdAt: now - (i % 3600) * 1000, author: { username: `feeder${i % 5000}`, followers: i % 9000 } }));
      }
      const r = await call('POST', `/trackers/${hash}/import?format=ndjson`, lines.join('\n'), 'application/x-ndjson');
      if (r.status !== 200) throw new Error(`import: ${r.status} ${JSON.stringify(r.body)}`);
      fed += r.body.imported;
      lastDone = performance.now();
    }
  };
  const loop = Promise.all(Array.from({ length: SENDERS }, sender));
  return async () => {
    stop = true;
    await loop;
    // Up to the last answer: a sender waiting for a slot after the stop sends nothing.
    return { fed, rate: fed / ((lastDone - started) / 1000), slip };
  };
}

function parseWrk(out) {
  const ms = (s) => {
    const m = s.match(/([\d.]+)(us|ms|s|m)\b/);
    return m ? Number(m[1]) * { us: 0.001, ms: 1, s: 1000, m: 60000 }[m[2]] : NaN;
  };
  const line = (re) => out.match(re)?.[1] ?? '';
  const sock = out.match(/Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/);
  return {
    p50: ms(line(/^\s+50%\s+(\S+)/m)),
    p90: ms(line(/^\s+90%\s+(\S+)/m)),
    p99: ms(line(/^\s+99%\s+(\S+)/m)),
    rps: Number(line(/Requests\/sec:\s+([\d.]+)/)),
    requests: Number(line(/(\d+) requests in/)),
    timeouts: sock ? Number(sock[4]) : 0,
    errors: sock ? Number(sock[1]) + Number(sock[2]) + Number(sock[3]) : 0,
    non2xx: Number(line(/Non-2xx or 3xx responses: (\d+)/) || 0),
  };
}

async function measure(label, { cacheMb, feed }) {
  const server = await startServer({ demo: true, env: { HARK_ANSWER_CACHE_MB: String(cacheMb) } });
  try {
    const call = await account(server.url);
    const demo = await waitUntil(async () => ((await call('GET', '/demo')).status === 200 ? (await call('GET', '/demo')).body : null), { what: 'the demo tracker', timeoutMs: 300_000 });
    // The backfill is written in batches, then the live feed adds a few posts every 5 s.
    let last = -1;
    await waitUntil(
      async () => {
        const n = (await call('GET', `/trackers/${demo.hash}/total-posts?days=all`)).body?.count?.posts ?? 0;
        const settled = n >= 30_000 && n - last < 50;
        last = n;
        return settled || null;
      },
      { what: 'the demo backfill', timeoutMs: 600_000, intervalMs: 3000 },
    );
    if (!feed) console.log(`demo tracker: ${last} posts`);
    const t = await call('POST', '/trackers', { title: 'Feed', platforms: { twt: 1 }, search: { rows: [{ type: '+', searches: ['latte'] }] } });
    if (t.status !== 201) throw new Error(`tracker: ${t.status}`);
    const dir = mkdtempSync(path.join(os.tmpdir(), 'hark-wrk-'));
    const script = path.join(dir, 'panels.lua');
    const paths = PANELS.map((p) => `/api/v1/trackers/${demo.hash}/dashboard/${p}?days=14&tz=UTC`);
    writeFileSync(
      script,
      `local paths = { ${paths.map((p) => JSON.stringify(p)).join(', ')} }\nlocal cookie = ${JSON.stringify(call.cookie())}\nlocal i = 0\nrequest = function()\n  i = i % #paths + 1\n  return wrk.format("GET", paths[i], { ["Cookie"] = cookie })\nend\n`,
    );
    // Every panel once, so the first computation of each is not what the clients measure.
    for (const p of paths) await fetch(server.url + p);
    const stopFeed = feed ? feeder(call, t.body.hash) : null;
    if (stopFeed) await new Promise((r) => setTimeout(r, 2000));
    const { stdout } = await run('wrk', ['-t2', `-c${CLIENTS}`, `-d${SECONDS}s`, '--timeout', '5s', '--latency', '-s', script, server.url], { maxBuffer: 1 << 20 });
    const fed = stopFeed ? await stopFeed() : null;
    const r = parseWrk(stdout);
    console.log(
      `${label.padEnd(34)} p50 ${r.p50.toFixed(1)} ms  p90 ${r.p90.toFixed(1)} ms  p99 ${r.p99.toFixed(1)} ms  ${r.rps.toFixed(0)} req/s  ${r.requests} requests  timeouts ${r.timeouts}  errors ${r.errors}  non-2xx ${r.non2xx}` +
        (fed ? `  fed ${fed.fed} posts at ${fed.rate.toFixed(0)}/s (latest request ${fed.slip.toFixed(0)} ms behind schedule)` : ''),
    );
    // wrk sends no If-None-Match, so every answer should be a 200: anything else (a 429, a 401) is
    // not the dashboard being measured.
    if (r.non2xx > 0) throw new Error(`${label}: ${r.non2xx} of ${r.requests} answers were not 200`);
    return r;
  } finally {
    await server.stop();
  }
}

console.log(`${CLIENTS} clients, ${SECONDS} s a run, the demo's 12 panels (last 14 days); feeder ${RATE} posts/s in requests of ${BATCH}; ${process.env.HARK_E2E_POSTGRES_URL ? 'PostgreSQL' : 'SQLite'}; ${os.cpus().length} cores, load ${os.loadavg()[0].toFixed(2)}`);
await measure('kept answers, no writes', { cacheMb: 64, feed: false });
await measure('kept answers, feeder', { cacheMb: 64, feed: true });
await measure('no kept answers (baseline), feeder', { cacheMb: 0, feed: true });

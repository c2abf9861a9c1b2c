// Dashboard load time of a large tracker in Chromium: from navigation until every panel has
// landed (the loading list is empty and no panel shows 'Loading...'), for the default window and
// for All Time; plus the app's initial JavaScript, gzipped. Not part of `make test`.
//
// The tracker comes from the dashboard benchmark, which keeps its SQLite database when asked and
// marks the tracker as the public demo (readable without signing in):
//
//   HARK_BENCH_SIZES=1000000 HARK_BENCH_BACKENDS=sqlite HARK_BENCH_KEEP=/var/tmp/dash1m.db \
//     cargo bench -p hark-ingest --bench dashboard          # prints "tracker /hashtag-tracking/…"
//   cargo build --release -p hark && (cd web && npm run build)
//   cd web && HARK_BIN=../target/release/hark HARK_BENCH_DB=/var/tmp/dash1m.db \
//     HARK_BENCH_TRACKER=/hashtag-tracking/dashboard/{hash}/{friendly} node e2e-bench/dashboard-load.mjs
//
// HARK_BENCH_RUNS (default 5) page loads per range.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { distDir, launchBrowser, shot, startServer } from '../e2e/harness.mjs';

const db = process.env.HARK_BENCH_DB;
const tracker = process.env.HARK_BENCH_TRACKER;
const runs = Number(process.env.HARK_BENCH_RUNS || 5);
if (!db || !tracker) {
  console.error('set HARK_BENCH_DB (the kept SQLite file) and HARK_BENCH_TRACKER (/hashtag-tracking/dashboard/{hash}/{friendly})');
  process.exit(2);
}

/** The scripts and module preloads index.html loads before anything else, gzipped. */
function initialJs() {
  const html = readFileSync(path.join(distDir, 'index.html'), 'utf8');
  const files = [...html.matchAll(/(?:src|href)="\/?([^"]+\.js)"/g)].map((m) => m[1]);
  let raw = 0;
  let gz = 0;
  for (const f of new Set(files)) {
    const buf = readFileSync(path.join(distDir, f));
    raw += buf.length;
    gz += gzipSync(buf, { level: 9 }).length;
  }
  return { files: [...new Set(files)], raw, gz };
}

function stats(v) {
  const s = [...v].sort((a, b) => a - b);
  const at = (p) => s[Math.min(s.length - 1, Math.round((s.length - 1) * p))];
  return { median: at(0.5), max: s[s.length - 1], all: v.map((x) => Math.round(x)) };
}

process.env.HARK_DATABASE_URL = `sqlite://${path.resolve(db)}`;
const server = await startServer();
const browser = await launchBrowser();
try {
  const js = initialJs();
  console.log(`initial JavaScript: ${(js.gz / 1024).toFixed(1)} KB gzipped (${(js.raw / 1024).toFixed(1)} KB raw; ${js.files.join(', ')})`);
  // All Time is a custom range from the first day of the tracker (the benchmark writes 90 days
  // up to the minute it ran) to today.
  const day = (d) => new Date(Date.now() - d * 86_400_000).toISOString().slice(0, 10);
  for (const [label, query] of [
    ['default window (14 days)', ''],
    ['30 days', '?days=30'],
    ['All Time', `?start=${day(Number(process.env.HARK_BENCH_AGE_DAYS || 91))}&end=${day(0)}`],
  ]) {
    const times = [];
    for (let i = 0; i < runs; i++) {
      const context = await browser.newContext({ viewport: { width: 1440, height: 1000 } });
      const page = await context.newPage();
      const t0 = Date.now();
      await page.goto(`${server.url}${tracker}${query}`);
      await page.waitForFunction(
        () => {
          const grid = document.querySelector('[data-testid="dashboard-grid"]');
          return grid && grid.getAttribute('data-loading') === '' && !grid.textContent.includes('Loading...');
        },
        null,
        { timeout: 120_000, polling: 10 },
      );
      times.push(Date.now() - t0);
      if (i === runs - 1) await shot(page, `bench-dashboard-${label.replace(/\W+/g, '-')}`);
      await context.close();
    }
    const s = stats(times);
    console.log(`${label}: every panel landed after median ${s.median} ms, max ${s.max} ms (runs: ${s.all.join(', ')})`);
  }
} finally {
  await browser.close();
  await server.stop();
}

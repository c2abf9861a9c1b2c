/// <reference types="vitest/config" />
import os from 'node:os';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';

// The dev server proxies the API to a running `hark serve` so `npm run dev` works beside it.
export default defineConfig({
  plugins: [react(), tailwindcss()],
  server: {
    // The finished export files are served by the server too (/export/hashtag/{token}.xlsx).
    proxy: { '/api': 'http://127.0.0.1:8080', '/export/hashtag': 'http://127.0.0.1:8080' },
  },
  build: {
    outDir: 'dist',
    sourcemap: false,
    chunkSizeWarningLimit: 800,
  },
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test-setup.ts'],
    // Files run in worker threads, at least two at a time (the default leaves one core of two
    // idle; threads start faster than processes). A test has 20 s: `make test` runs these beside
    // the Rust tests.
    pool: 'threads',
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    testTimeout: 20_000,
  },
});

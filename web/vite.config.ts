/// <reference types="vitest/config" />
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
  },
});

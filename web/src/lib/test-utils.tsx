// Test helpers: render inside the app's providers and answer API calls from a table.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { vi } from 'vitest';

export interface ApiCall {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
  headers: Headers;
}

type Handler = (call: ApiCall) => { status?: number; body?: unknown } | Promise<{ status?: number; body?: unknown }>;

/**
 * Replaces fetch: routes are keyed 'METHOD /path' (path after /api/v1, without the query).
 * Unknown routes answer 404. Returns the list of calls made.
 */
export function mockApi(routes: Record<string, Handler>): ApiCall[] {
  const calls: ApiCall[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init?: RequestInit) => {
      const url = new URL(input, 'http://localhost');
      const method = (init?.method ?? 'GET').toUpperCase();
      const path = url.pathname.replace(/^\/api\/v1/, '');
      const call: ApiCall = {
        method,
        path,
        query: url.searchParams,
        // JSON bodies are parsed; raw uploads (Blob/File) are passed through as they are.
        body: typeof init?.body === 'string' ? JSON.parse(init.body) : (init?.body ?? undefined),
        headers: new Headers(init?.headers),
      };
      calls.push(call);
      const h = routes[`${method} ${path}`];
      const res = h ? await h(call) : { status: 404, body: { error: { code: 'not_found', message: 'Not found' } } };
      const status = res.status ?? 200;
      return new Response(status === 204 ? null : JSON.stringify(res.body ?? null), {
        status,
        headers: { 'Content-Type': 'application/json' },
      });
    }),
  );
  return calls;
}

/** Shows the current location so tests can assert navigation. */
function LocationProbe() {
  const loc = useLocation();
  return <div data-testid="location">{loc.pathname + loc.search}</div>;
}

export function renderRoute(ui: ReactElement, opts: { path: string; url: string }) {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  return render(
    <QueryClientProvider client={qc}>
      <MemoryRouter initialEntries={[opts.url]}>
        <Routes>
          <Route path={opts.path} element={ui} />
          <Route path="*" element={<div>elsewhere</div>} />
        </Routes>
        <LocationProbe />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

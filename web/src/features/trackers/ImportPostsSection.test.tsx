import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ImportResult, Tracker } from '../../api/types';
import { mockApi, renderRoute } from '../../lib/test-utils';
import { EditTrackerPage } from './EditTrackerPage';
import { meFixture, trackerFixture } from './fixtures';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});
beforeEach(() => {
  localStorage.clear();
  document.cookie = 'hark_csrf=tok123';
});

const RESULT: ImportResult = { lines: 4, imported: 2, newPosts: 2, unmatched: 1, invalid: 1, errors: [{ line: 4, reason: 'not valid JSON: key must be a string' }] };

type Answer = { status?: number; body?: unknown } | Promise<{ status?: number; body?: unknown }>;

function setup(answer: () => Answer, opts: { tracker?: Tracker; url?: string } = {}) {
  const tracker = opts.tracker ?? trackerFixture();
  const calls = mockApi({
    'GET /me': () => ({ body: meFixture({ permission: tracker.permission }) }),
    [`GET /trackers/${tracker.hash}`]: () => ({ body: tracker }),
    [`POST /trackers/${tracker.hash}/import`]: answer,
  });
  renderRoute(<EditTrackerPage />, { path: '/edit/:hash/:friendly', url: opts.url ?? `/edit/${tracker.hash}/${tracker.friendly}` });
  return calls;
}

const file = (name: string, text: string, type = '') => new File([text], name, { type });

async function choose(f: File) {
  const input = await screen.findByLabelText('File');
  fireEvent.change(input, { target: { files: [f] } });
}

describe('Import posts', () => {
  it('uploads the raw file with the detected format and shows the summary and line errors', async () => {
    const calls = setup(() => ({ body: RESULT }));
    const section = within(await screen.findByRole('region', { name: 'Import posts' }));
    expect(section.getByText(/Hark post JSON per line/)).toBeInTheDocument();
    const f = file('posts.jsonl', '{"platform":"twitter"}\n{not json\n');
    await choose(f);
    expect(section.getByLabelText('Format')).toHaveValue('ndjson');
    expect(section.queryByLabelText('Platform of the rows')).not.toBeInTheDocument();
    fireEvent.click(section.getByRole('button', { name: 'Import' }));

    expect(await section.findByText("2 posts imported (2 new), 1 did not match this tracker's search, 1 invalid line.")).toBeInTheDocument();
    const row = section.getByRole('row', { name: /Line 4/ });
    expect(row).toHaveTextContent('Line 4not valid JSON: key must be a string');

    const call = calls.find((c) => c.method === 'POST')!;
    expect(call.path).toBe('/trackers/abc123/import');
    expect(call.query.get('format')).toBe('ndjson');
    expect(call.query.has('platform')).toBe(false);
    expect(call.body).toBe(f);
    expect(call.headers.get('Content-Type')).toBe('application/x-ndjson');
    expect(call.headers.get('X-CSRF-Token')).toBe('tok123');
  });

  it('CSV: sends the platform and the cleaned-up column mapping', async () => {
    const calls = setup(() => ({ body: { ...RESULT, invalid: 0, errors: [] } }));
    const section = within(await screen.findByRole('region', { name: 'Import posts' }));
    await choose(file('export.CSV', 'Body,Date\nhello,2024-01-01\n'));
    expect(section.getByLabelText('Format')).toHaveValue('csv');
    expect(section.getByLabelText('Platform of the rows')).toHaveValue('twt');
    fireEvent.change(section.getByLabelText('Platform of the rows'), { target: { value: 'news' } });
    fireEvent.change(section.getByLabelText('Column mapping (optional)'), { target: { value: ' text = Body, created_at=Date ' } });
    fireEvent.click(section.getByRole('button', { name: 'Import' }));
    expect(await section.findByText(/2 posts imported/)).toBeInTheDocument();
    expect(section.queryByRole('table')).not.toBeInTheDocument();
    const call = calls.find((c) => c.method === 'POST')!;
    expect(call.query.get('format')).toBe('csv');
    expect(call.query.get('platform')).toBe('news');
    expect(call.query.get('map')).toBe('text=Body,created_at=Date');
    expect(call.headers.get('Content-Type')).toBe('text/csv');
  });

  it('the format can be overridden for an unknown extension', async () => {
    const calls = setup(() => ({ body: RESULT }));
    const section = within(await screen.findByRole('region', { name: 'Import posts' }));
    await choose(file('dump.txt', 'a,b\n'));
    fireEvent.change(section.getByLabelText('Format'), { target: { value: 'csv' } });
    fireEvent.click(section.getByRole('button', { name: 'Import' }));
    await section.findByText(/2 posts imported/);
    expect(calls.find((c) => c.method === 'POST')!.query.get('format')).toBe('csv');
  });

  it('a bad mapping or a missing file stops before any request', async () => {
    const calls = setup(() => ({ body: RESULT }));
    const section = within(await screen.findByRole('region', { name: 'Import posts' }));
    fireEvent.click(section.getByRole('button', { name: 'Import' }));
    expect(await section.findByText('Choose a file to import.')).toBeInTheDocument();
    await choose(file('a.csv', 'x\n'));
    fireEvent.change(section.getByLabelText('Column mapping (optional)'), { target: { value: 'text' } });
    fireEvent.click(section.getByRole('button', { name: 'Import' }));
    expect(await section.findByText('“text” is not field=Column.')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('disables the form while the import runs', async () => {
    let release: () => void = () => {};
    setup(() => new Promise((r) => { release = () => r({ body: RESULT }); }));
    const section = within(await screen.findByRole('region', { name: 'Import posts' }));
    await choose(file('posts.ndjson', '{}\n'));
    fireEvent.click(section.getByRole('button', { name: 'Import' }));
    const busy = await section.findByRole('button', { name: 'Importing…' });
    expect(busy).toBeDisabled();
    expect(busy).toHaveAttribute('aria-busy', 'true');
    expect(section.getByLabelText('File')).toBeDisabled();
    expect(section.getByRole('status')).toHaveTextContent('Uploading and importing posts.ndjson');
    release();
    expect(await section.findByText(/2 posts imported/)).toBeInTheDocument();
    expect(section.getByRole('button', { name: 'Import' })).toBeEnabled();
  });

  it('shows the server message when the import is refused', async () => {
    setup(() => ({ status: 413, body: { error: { code: 'payload_too_large', message: 'The file is larger than 50 MB.' } } }));
    const section = within(await screen.findByRole('region', { name: 'Import posts' }));
    await choose(file('posts.ndjson', '{}\n'));
    fireEvent.click(section.getByRole('button', { name: 'Import' }));
    const alert = await section.findByRole('alert');
    expect(alert).toHaveTextContent('The import failed. The file is larger than 50 MB.');
    expect(section.queryByTestId('import-result')).not.toBeInTheDocument();
  });

  it('is not offered to editors, in demo mode or on the demo tracker', async () => {
    setup(() => ({ body: RESULT }), { tracker: trackerFixture({ permission: 2, isOwner: false }) });
    await screen.findByRole('heading', { name: 'Tracker Settings' });
    expect(screen.queryByRole('region', { name: 'Import posts' })).not.toBeInTheDocument();
    cleanup();

    setup(() => ({ body: RESULT }), { url: '/edit/abc123/rust-lang?demo=true' });
    await screen.findByRole('heading', { name: 'Tracker Settings' });
    expect(screen.queryByRole('region', { name: 'Import posts' })).not.toBeInTheDocument();
    cleanup();

    setup(() => ({ body: RESULT }), { tracker: trackerFixture({ isDemo: true }) });
    await screen.findByRole('heading', { name: 'Tracker Settings' });
    expect(screen.getByTestId('sample-data-notice')).toHaveTextContent('Sample data');
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Import posts' })).not.toBeInTheDocument());
  });
});

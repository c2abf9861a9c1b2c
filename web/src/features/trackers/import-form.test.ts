import { describe, expect, it } from 'vitest';
import { formatBytes, formatFromName, importSummary, parseMapping } from './import-form';

describe('formatFromName', () => {
  it('reads the extension, case-insensitively', () => {
    expect(formatFromName('posts.ndjson')).toBe('ndjson');
    expect(formatFromName('posts.JSONL')).toBe('ndjson');
    expect(formatFromName('search-response.json')).toBe('ndjson');
    expect(formatFromName('export.2024.CSV')).toBe('csv');
    expect(formatFromName('notes.txt')).toBeNull();
    expect(formatFromName('README')).toBeNull();
  });
});

describe('parseMapping', () => {
  it('blank means no mapping', () => {
    expect(parseMapping('  ')).toEqual({ value: undefined, error: null });
  });
  it('trims spaces around pairs and names', () => {
    expect(parseMapping(' text = Body ,created_at=Date, ')).toEqual({ value: 'text=Body,created_at=Date', error: null });
  });
  it('refuses a pair without a column', () => {
    expect(parseMapping('text=Body, author').error).toMatch('author');
    expect(parseMapping('=Body').error).not.toBeNull();
    expect(parseMapping('text=').error).not.toBeNull();
  });
});

describe('importSummary', () => {
  it('counts with singular and plural', () => {
    const base = { lines: 4, errors: [] };
    expect(importSummary({ ...base, imported: 2, newPosts: 2, unmatched: 1, invalid: 1 })).toBe(
      "2 posts imported (2 new), 1 did not match this tracker's search, 1 invalid line",
    );
    expect(importSummary({ ...base, imported: 1, newPosts: 0, unmatched: 0, invalid: 1200 })).toBe(
      "1 post imported (0 new), 0 did not match this tracker's search, 1,200 invalid lines",
    );
  });
});

describe('formatBytes', () => {
  it('picks a unit', () => {
    expect(formatBytes(900)).toBe('900 B');
    expect(formatBytes(2048)).toBe('2.0 KB');
    expect(formatBytes(50 * 1024 * 1024)).toBe('50.0 MB');
  });
});

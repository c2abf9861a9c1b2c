// Pure helpers of the "Import posts" section: format from the file name, the column mapping,
// the size limit and the result summary.
import type { ImportFormat, ImportResult } from '../../api/types';

export const IMPORT_MAX_BYTES = 50 * 1024 * 1024;
export const IMPORT_ACCEPT = '.ndjson,.jsonl,.json,.csv';
/** The server keeps at most this many line errors. */
export const IMPORT_ERRORS_CAP = 100;

/** ndjson for .ndjson/.jsonl/.json, csv for .csv, null when the extension says nothing. */
export function formatFromName(name: string): ImportFormat | null {
  const ext = name.toLowerCase().match(/\.([a-z0-9]+)$/)?.[1];
  if (ext === 'csv') return 'csv';
  if (ext === 'ndjson' || ext === 'jsonl' || ext === 'json') return 'ndjson';
  return null;
}

/**
 * "text=Body, created_at=Date" → { value: "text=Body,created_at=Date" }. Blank is fine (no
 * mapping); a pair without a field or a column name is an error.
 */
export function parseMapping(input: string): { value: string | undefined; error: string | null } {
  const pairs = input
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  if (pairs.length === 0) return { value: undefined, error: null };
  const out: string[] = [];
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    const field = eq > 0 ? pair.slice(0, eq).trim() : '';
    const column = eq > 0 ? pair.slice(eq + 1).trim() : '';
    if (!field || !column) return { value: undefined, error: `“${pair}” is not field=Column.` };
    out.push(`${field}=${column}`);
  }
  return { value: out.join(','), error: null };
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / (1024 * 1024)).toFixed(1)} MB`;
}

const num = (n: number) => n.toLocaleString('en-US');
const plural = (n: number, one: string, many: string) => `${num(n)} ${n === 1 ? one : many}`;

/** "2 posts imported (2 new), 1 did not match this tracker's search, 1 invalid line" */
export function importSummary(r: ImportResult): string {
  return (
    `${plural(r.imported, 'post', 'posts')} imported (${num(r.newPosts)} new), ` +
    `${num(r.unmatched)} did not match this tracker's search, ` +
    `${plural(r.invalid, 'invalid line', 'invalid lines')}`
  );
}

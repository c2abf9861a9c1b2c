// User text (tracker titles, post texts, names, bios) reaches the page only as React text, which
// React escapes: nothing in the app writes HTML itself. This keeps it so: a raw-HTML sink in
// the source fails here (the server's content security policy would also refuse the inline
// script such markup could carry).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SINKS = [/dangerouslySetInnerHTML/, /\.innerHTML\s*=/, /\.outerHTML\s*=/, /insertAdjacentHTML/, /document\.write/, /\bnew Function\(/, /\beval\(/];

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) return sources(p);
    return /\.(ts|tsx)$/.test(name) && !/\.test\.tsx?$/.test(name) ? [p] : [];
  });
}

describe('no raw HTML', () => {
  it('writes no markup of its own anywhere in the app', () => {
    const root = path.resolve(__dirname, '..');
    const files = sources(root);
    expect(files.length).toBeGreaterThan(50);
    const found = files.flatMap((f) => {
      const text = readFileSync(f, 'utf8');
      return SINKS.filter((re) => re.test(text)).map((re) => `${path.relative(root, f)}: ${re}`);
    });
    expect(found).toEqual([]);
  });
});

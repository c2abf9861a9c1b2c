// Number formatting rules of the spec: counts above 10,000 short (12.3k), '-' when empty,
// rates with one decimal and a percent sign.

export function formatMetric(n: number | null | undefined): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return '-';
  const abs = Math.abs(n);
  if (abs <= 10_000) return n.toLocaleString('en-US');
  if (abs < 1_000_000) return `${short(n / 1000)}k`;
  if (abs < 1_000_000_000) return `${short(n / 1_000_000)}M`;
  return `${short(n / 1_000_000_000)}B`;
}

export function formatRate(r: number | null | undefined): string {
  if (r === null || r === undefined || !Number.isFinite(r)) return '-';
  return `${r.toFixed(1)}%`;
}

function short(x: number): string {
  return x.toFixed(1).replace(/\.0$/, '');
}

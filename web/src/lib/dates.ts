// Date, time and count formatting for lists (instants are milliseconds since the epoch).
const dateFmt = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'short', day: 'numeric' });

export function formatDay(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '–';
  return dateFmt.format(new Date(ms));
}

/** 950, 12.3k, 4.1M */
export function formatCount(n: number | null | undefined): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return '0';
  const abs = Math.abs(n);
  if (abs < 1000) return String(n);
  if (abs < 1_000_000) return `${trim1(n / 1000)}k`;
  if (abs < 1_000_000_000) return `${trim1(n / 1_000_000)}M`;
  return `${trim1(n / 1_000_000_000)}B`;
}

function trim1(x: number): string {
  return x.toFixed(1).replace(/\.0$/, '');
}

const dateTimeFmts = new Map<string, Intl.DateTimeFormat>();

/**
 * "Mar 5, 2024, 2:30 PM": a day and its time, in the browser's zone or in `timeZone` (an IANA
 * name such as "Europe/Paris", then named after the time: "2:30 PM GMT+1"); `weekday` puts the
 * day's name first ("Tue, Mar 5, 2024, …").
 */
export function formatDateTime(ms: number | null | undefined, opts: { timeZone?: string; weekday?: boolean } = {}): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '–';
  const key = `${opts.timeZone ?? ''}|${opts.weekday ? 1 : 0}`;
  let fmt = dateTimeFmts.get(key);
  if (!fmt) {
    const base: Intl.DateTimeFormatOptions = { year: 'numeric', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' };
    if (opts.weekday) base.weekday = 'short';
    try {
      fmt = new Intl.DateTimeFormat('en-US', opts.timeZone ? { ...base, timeZone: opts.timeZone, timeZoneName: 'short' } : base);
    } catch {
      // A zone this browser does not know: its own zone, said so.
      fmt = new Intl.DateTimeFormat('en-US', { ...base, timeZoneName: 'short' });
    }
    dateTimeFmts.set(key, fmt);
  }
  // Newer ICU puts a narrow no-break space before AM/PM; a plain space reads and matches the same.
  return fmt.format(new Date(ms)).replace(/\u202f/g, ' ');
}

/** "just now", "5 min ago", "3 h ago", "2 days ago"; ahead of `now`: "in 5 min", "in 3 h", "in 2 days". */
export function formatRelative(ms: number | null | undefined, now: number): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '–';
  const diff = Math.round((now - ms) / 1000);
  const s = Math.abs(diff);
  if (s < 45) return 'just now';
  let text: string;
  if (s < 3600) text = `${Math.max(1, Math.round(s / 60))} min`;
  else if (s < 86_400) text = `${Math.round(s / 3600)} h`;
  else {
    const days = Math.round(s / 86_400);
    text = `${days} ${days === 1 ? 'day' : 'days'}`;
  }
  return diff >= 0 ? `${text} ago` : `in ${text}`;
}

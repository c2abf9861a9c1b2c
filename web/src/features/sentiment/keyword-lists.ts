// The Edit Sentiment Keywords form as data: three lists of inputs. A keyword lives in one list
// only (typing it into another moves it), an empty list keeps one blank input, blanks are dropped
// on save, and saving is possible only when the lists differ from the saved ones.
import type { SentimentKeywords } from '../../api/types';

export type ListName = keyof SentimentKeywords;
export const LIST_NAMES: ListName[] = ['positive', 'neutral', 'negative'];
export const LIST_LABELS: Record<ListName, string> = { positive: 'Positive', neutral: 'Neutral', negative: 'Negative' };

export type Draft = Record<ListName, string[]>;

const norm = (k: string) => k.trim().toLowerCase();

/** The form's starting state from saved lists: each list shows at least one input. */
export function toDraft(saved: SentimentKeywords | undefined): Draft {
  const draft = {} as Draft;
  for (const name of LIST_NAMES) {
    const list = saved?.[name] ?? [];
    draft[name] = list.length ? [...list] : [''];
  }
  return draft;
}

/** The lists a save sends: trimmed, blanks and repeats dropped. */
export function cleaned(draft: Draft): SentimentKeywords {
  const out = { positive: [], neutral: [], negative: [] } as SentimentKeywords;
  const seen = new Set<string>();
  for (const name of LIST_NAMES) {
    for (const k of draft[name]) {
      const n = norm(k);
      if (!n || seen.has(n)) continue;
      seen.add(n);
      out[name].push(k.trim());
    }
  }
  return out;
}

export function sameLists(a: SentimentKeywords, b: SentimentKeywords): boolean {
  return LIST_NAMES.every((n) => a[n].length === b[n].length && a[n].every((k, i) => norm(k) === norm(b[n][i])));
}

/** Types into one input. */
export function setEntry(draft: Draft, list: ListName, index: number, value: string): Draft {
  const next = { ...draft, [list]: draft[list].map((k, i) => (i === index ? value : k)) };
  return next;
}

/** When an input is left: the keyword leaves every other list (empty lists keep one blank input). */
export function commitEntry(draft: Draft, list: ListName, index: number): Draft {
  const n = norm(draft[list][index] ?? '');
  if (!n) return draft;
  const next = { ...draft };
  for (const other of LIST_NAMES) {
    if (other === list) continue;
    const kept = draft[other].filter((k) => norm(k) !== n);
    if (kept.length !== draft[other].length) next[other] = kept.length ? kept : [''];
  }
  // A repeat in the same list collapses to the edited entry.
  next[list] = draft[list].filter((k, i) => i === index || norm(k) !== n);
  return next;
}

export function addEntry(draft: Draft, list: ListName): Draft {
  return { ...draft, [list]: [...draft[list], ''] };
}

export function removeEntry(draft: Draft, list: ListName, index: number): Draft {
  const kept = draft[list].filter((_, i) => i !== index);
  return { ...draft, [list]: kept.length ? kept : [''] };
}

/** The remove button shows for an input with text, or for any input after the first. */
export function canRemove(draft: Draft, list: ListName, index: number): boolean {
  return index > 0 || draft[list][index].trim() !== '';
}

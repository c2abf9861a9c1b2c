import { describe, expect, it } from 'vitest';
import { addEntry, canRemove, cleaned, commitEntry, removeEntry, sameLists, setEntry, toDraft } from './keyword-lists';

const saved = { positive: ['love'], neutral: [], negative: ['refund', 'broken'] };

describe('sentiment keyword lists', () => {
  it('shows one blank input for an empty list', () => {
    expect(toDraft(saved)).toEqual({ positive: ['love'], neutral: [''], negative: ['refund', 'broken'] });
    expect(toDraft(undefined)).toEqual({ positive: [''], neutral: [''], negative: [''] });
  });

  it('moves a keyword typed into another list out of the first', () => {
    let d = toDraft(saved);
    d = addEntry(d, 'neutral');
    d = setEntry(d, 'neutral', 1, ' Refund ');
    d = commitEntry(d, 'neutral', 1);
    expect(d.negative).toEqual(['broken']);
    expect(d.neutral).toEqual(['', ' Refund ']);
    // The last keyword of a list leaves one blank input behind.
    d = setEntry(d, 'negative', 0, 'LOVE');
    d = commitEntry(d, 'negative', 0);
    expect(d.positive).toEqual(['']);
  });

  it('drops blanks and repeats on save and compares with the saved lists', () => {
    let d = toDraft(saved);
    expect(sameLists(cleaned(d), saved)).toBe(true);
    d = addEntry(d, 'positive');
    expect(sameLists(cleaned(d), saved)).toBe(true);
    d = setEntry(d, 'positive', 1, 'great');
    expect(cleaned(d)).toEqual({ positive: ['love', 'great'], neutral: [], negative: ['refund', 'broken'] });
    expect(sameLists(cleaned(d), saved)).toBe(false);
  });

  it('offers remove for text or any input after the first', () => {
    const d = { positive: [''], neutral: ['x'], negative: ['', ''] };
    expect(canRemove(d, 'positive', 0)).toBe(false);
    expect(canRemove(d, 'neutral', 0)).toBe(true);
    expect(canRemove(d, 'negative', 1)).toBe(true);
    expect(removeEntry(d, 'neutral', 0).neutral).toEqual(['']);
  });
});

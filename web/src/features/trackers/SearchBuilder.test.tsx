import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import type { SearchRow } from '../../api/types';
import { limitReachedText, SearchBuilder } from './SearchBuilder';

function Harness({ initial, maxSearches = 5, maxIgnored = 5, readOnly = false }: { initial: SearchRow[]; maxSearches?: number; maxIgnored?: number; readOnly?: boolean }) {
  const [rows, setRows] = useState(initial);
  return (
    <MemoryRouter>
      <SearchBuilder rows={rows} onChange={setRows} limits={{ maxSearches, maxIgnored }} readOnly={readOnly} />
      <pre data-testid="rows">{JSON.stringify(rows)}</pre>
    </MemoryRouter>
  );
}

afterEach(cleanup);

const rowsOf = () => JSON.parse(screen.getByTestId('rows').textContent!) as SearchRow[];

describe('SearchBuilder', () => {
  it('first row is fixed, new rows have two blank inputs and a type select', () => {
    render(<Harness initial={[{ type: '+', searches: [''] }]} />);
    expect(screen.getByText('That include')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: '+ Add row' }));
    expect(rowsOf()).toEqual([{ type: '+', searches: [''] }, { type: '+', searches: ['', ''] }]);
    const select = screen.getByRole('combobox', { name: 'Row 2 type' });
    expect(screen.getByRole('option', { name: 'And include' })).toBeInTheDocument();
    fireEvent.change(select, { target: { value: '-' } });
    expect(rowsOf()[1].type).toBe('-');
    expect(screen.getByRole('textbox', { name: 'Row 2 term 2' })).toBeInTheDocument();
  });

  it('hides add controls once the include count reaches maxSearches', () => {
    render(<Harness initial={[{ type: '+', searches: ['a', 'b'] }]} maxSearches={3} />);
    expect(screen.getByRole('button', { name: 'Add a term to row 1' })).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Add a term to row 1' }));
    // A blank input does not count yet.
    expect(screen.getByRole('button', { name: '+ Add row' })).toBeInTheDocument();
    fireEvent.change(screen.getByRole('textbox', { name: 'Row 1 term 3' }), { target: { value: 'c' } });
    expect(screen.queryByRole('button', { name: '+ Add row' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add a term to row 1' })).not.toBeInTheDocument();
    expect(screen.getByTestId('search-counts')).toHaveTextContent('Searches 3 of 3');
    // The controls did not just vanish: the limit is named, with the way to more.
    expect(screen.getByRole('status')).toHaveTextContent('Your plan allows 3 searches. Upgrade your account to unlock');
    expect(screen.getByRole('link', { name: 'Upgrade your account to unlock' })).toHaveAttribute('href', '/pricing');
    fireEvent.click(screen.getByRole('button', { name: 'Remove row 1 term 3' }));
    expect(screen.queryByTestId('search-limit')).toBeNull();
    expect(screen.getByRole('button', { name: '+ Add row' })).toBeInTheDocument();
  });

  it('names the limit reached, and says nothing below the limits or when read-only', () => {
    const limits = { maxSearches: 3, maxIgnored: 1 };
    expect(limitReachedText(2, 0, limits)).toBeNull();
    expect(limitReachedText(3, 0, limits)).toBe('Your plan allows 3 searches.');
    expect(limitReachedText(1, 1, limits)).toBe('Your plan allows 1 excluded term.');
    expect(limitReachedText(3, 1, limits)).toBe('Your plan allows 3 searches and 1 excluded term.');
    expect(limitReachedText(1, 2, { maxSearches: 1, maxIgnored: 2 })).toBe('Your plan allows 1 search and 2 excluded terms.');
    render(<Harness initial={[{ type: '+', searches: ['a', 'b', 'c'] }]} maxSearches={3} readOnly />);
    expect(screen.queryByTestId('search-limit')).toBeNull();
  });

  it('offers Do not include only while below maxIgnored', () => {
    render(
      <Harness
        initial={[{ type: '+', searches: ['a'] }, { type: '-', searches: ['x'] }, { type: '+', searches: ['b', ''] }]}
        maxIgnored={1}
      />,
    );
    // Row 2 already excludes and keeps its option; row 3 cannot switch to exclude.
    const row3 = screen.getByRole('combobox', { name: 'Row 3 type' });
    expect(row3.querySelectorAll('option')).toHaveLength(1);
    const row2 = screen.getByRole('combobox', { name: 'Row 2 type' });
    expect(row2.querySelectorAll('option')).toHaveLength(2);
    expect(screen.queryByRole('button', { name: '+ Add row' })).not.toBeInTheDocument();
    expect(screen.getByTestId('search-limit')).toHaveTextContent('Your plan allows 1 excluded term.');
  });

  it('inputs grow 5 px per character beyond 10', () => {
    render(<Harness initial={[{ type: '+', searches: ['abcdefghijklmno'] }]} />);
    expect(screen.getByRole('textbox', { name: 'Row 1 term 1' })).toHaveStyle({ width: '175px' });
  });

  it('removes rows and inputs', () => {
    render(<Harness initial={[{ type: '+', searches: ['a', 'b'] }, { type: '+', searches: ['c'] }]} />);
    fireEvent.click(screen.getByRole('button', { name: 'Remove row 1 term 1' }));
    fireEvent.click(screen.getByRole('button', { name: 'Remove row 2' }));
    expect(rowsOf()).toEqual([{ type: '+', searches: ['b'] }]);
    expect(screen.queryByRole('button', { name: 'Remove row 1' })).not.toBeInTheDocument();
  });
});

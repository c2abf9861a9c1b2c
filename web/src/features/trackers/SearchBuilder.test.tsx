import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import type { SearchRow } from '../../api/types';
import { SearchBuilder } from './SearchBuilder';

function Harness({ initial, maxSearches = 5, maxIgnored = 5 }: { initial: SearchRow[]; maxSearches?: number; maxIgnored?: number }) {
  const [rows, setRows] = useState(initial);
  return (
    <>
      <SearchBuilder rows={rows} onChange={setRows} limits={{ maxSearches, maxIgnored }} />
      <pre data-testid="rows">{JSON.stringify(rows)}</pre>
    </>
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

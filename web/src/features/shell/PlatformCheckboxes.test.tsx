import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PlatformCode, PlatformFlags } from '../../api/types';
import { TooltipProvider } from '../../components/Tooltip';
import { selectedPlatforms } from '../../state/access';
import type { TrackerPage } from '../../state/query-state';
import { PlatformCheckboxes } from './PlatformCheckboxes';
import { flags } from './test-fixtures';

function Harness({ f, page = 'posts', trial = false, onChange }: { f: PlatformFlags; page?: TrackerPage; trial?: boolean; onChange?: (s: PlatformCode[] | null) => void }) {
  const [chosen, setChosen] = useState<PlatformCode[] | null>(null);
  return (
    <MemoryRouter>
      <TooltipProvider>
        <PlatformCheckboxes
          page={page}
          flags={f}
          trial={trial}
          selected={selectedPlatforms(chosen, page, f)}
          onChange={(s) => {
            onChange?.(s);
            setChosen(s);
          }}
        />
      </TooltipProvider>
    </MemoryRouter>
  );
}

afterEach(cleanup);

const box = (name: string) => screen.getByRole('checkbox', { name }) as HTMLInputElement;

describe('PlatformCheckboxes', () => {
  it("enables only the tracker's platforms", () => {
    render(<Harness f={flags(['twt', 'news'])} />);
    expect(box('Twitter')).toBeEnabled();
    expect(box('Twitter')).toBeChecked();
    expect(box('News')).toBeEnabled();
    expect(box('Instagram')).toBeDisabled();
    expect(box('Instagram')).not.toBeChecked();
    expect(box('Forums')).toBeDisabled();
  });

  it('keeps the last checked platform checked (the toggle is reverted)', () => {
    const onChange = vi.fn();
    render(<Harness f={flags(['twt', 'ig'])} onChange={onChange} />);
    fireEvent.click(box('Twitter'));
    expect(onChange).toHaveBeenLastCalledWith(['ig']);
    expect(box('Twitter')).not.toBeChecked();
    expect(box('Instagram')).toBeChecked();
    fireEvent.click(box('Instagram'));
    expect(box('Instagram')).toBeChecked();
    expect(onChange).toHaveBeenCalledTimes(1);
    fireEvent.click(box('Twitter'));
    // Back to every platform: the URL default (null).
    expect(onChange).toHaveBeenLastCalledWith(null);
    expect(box('Twitter')).toBeChecked();
    expect(box('Instagram')).toBeChecked();
  });

  it('shows only the platforms the page supports', () => {
    render(<Harness f={flags(['twt', 'yt', 'news'])} page="sentiment" />);
    expect(screen.queryByRole('checkbox', { name: 'YouTube' })).toBeNull();
    expect(screen.queryByRole('checkbox', { name: 'News' })).toBeNull();
    expect(box('Twitter')).toBeChecked();
    expect(box('Facebook')).toBeDisabled();
  });

  it('locks tiktok, facebook and youtube on trial when the tracker lacks them', () => {
    render(<Harness f={flags(['twt', 'yt'])} trial />);
    expect(screen.getByRole('button', { name: 'TikTok is locked on trial' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Facebook is locked on trial' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'YouTube is locked on trial' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Instagram is locked on trial' })).toBeNull();
  });

  it('shows no locks outside a trial', () => {
    render(<Harness f={flags(['twt'])} />);
    expect(screen.queryByRole('button', { name: /locked on trial/ })).toBeNull();
  });
});

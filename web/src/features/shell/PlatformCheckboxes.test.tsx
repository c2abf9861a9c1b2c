import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PlatformCode, PlatformFlags } from '../../api/types';
import { TooltipProvider } from '../../components/Tooltip';
import { selectedPlatforms } from '../../state/access';
import type { TrackerPage } from '../../state/query-state';
import { PlatformCheckboxes } from './PlatformCheckboxes';
import { flags } from './test-fixtures';

function Harness({
  f,
  page = 'posts',
  trial = false,
  trialLocked,
  onChange,
}: {
  f: PlatformFlags;
  page?: TrackerPage;
  trial?: boolean;
  trialLocked?: PlatformCode[];
  onChange?: (s: PlatformCode[] | null) => void;
}) {
  const [chosen, setChosen] = useState<PlatformCode[] | null>(null);
  return (
    <MemoryRouter>
      <TooltipProvider>
        <Routes>
          <Route
            path="/"
            element={
              <>
                <button type="button">Before</button>
                <PlatformCheckboxes
                  page={page}
                  flags={f}
                  trial={trial}
                  trialLocked={trialLocked}
                  selected={selectedPlatforms(chosen, page, f)}
                  onChange={(s) => {
                    onChange?.(s);
                    setChosen(s);
                  }}
                />
              </>
            }
          />
          <Route path="/contact-us" element={<h1>Contact us</h1>} />
        </Routes>
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

  it("locks the instance's own list of trial platforms (GET /me's trialLockedPlatforms)", () => {
    render(<Harness f={flags(['twt'])} trial trialLocked={['tt', 'ig']} />);
    expect(screen.getByRole('button', { name: 'TikTok is locked on trial' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Instagram is locked on trial' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Facebook is locked on trial' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'YouTube is locked on trial' })).toBeNull();
    cleanup();
    // An instance that locks nothing on trial.
    render(<Harness f={flags(['twt'])} trial trialLocked={[]} />);
    expect(screen.queryByRole('button', { name: /locked on trial/ })).toBeNull();
  });

  it("names the locked platform in the lock's tooltip, with a Contact us link", async () => {
    // The tooltip measures itself; jsdom has no ResizeObserver.
    vi.stubGlobal('ResizeObserver', class { observe() {} unobserve() {} disconnect() {} });
    render(<Harness f={flags(['twt'])} trial />);
    fireEvent.focus(screen.getByRole('button', { name: 'TikTok is locked on trial' }));
    const tip = await screen.findByRole('tooltip');
    expect(tip).toHaveTextContent('listening for specified TikTok accounts is not available on trial. Contact us');
    expect(screen.getAllByRole('link', { name: 'Contact us' })[0]).toHaveAttribute('href', '/contact-us');
    vi.unstubAllGlobals();
  });

  describe('the lock from the keyboard', () => {
    // The popover and the tooltip measure themselves; jsdom has no ResizeObserver.
    beforeEach(() => {
      vi.stubGlobal('ResizeObserver', class { observe() {} unobserve() {} disconnect() {} });
    });
    afterEach(() => {
      vi.unstubAllGlobals();
    });

    it('Enter opens a popover with the reason, the focus on its Contact us link; Escape closes it and gives the focus back to the lock', async () => {
      const user = userEvent.setup();
      render(<Harness f={flags(['twt'])} trial />);
      const lock = screen.getByRole('button', { name: 'TikTok is locked on trial' });
      expect(lock).toHaveAttribute('aria-haspopup', 'dialog');
      expect(lock).toHaveAttribute('aria-expanded', 'false');
      lock.focus();
      await user.keyboard('{Enter}');
      const pop = await screen.findByRole('dialog', { name: 'listening for specified TikTok accounts is not available on trial' });
      expect(pop).toHaveTextContent('listening for specified TikTok accounts is not available on trial. Contact us');
      expect(lock).toHaveAttribute('aria-expanded', 'true');
      const contact = within(pop).getByRole('link', { name: 'Contact us' });
      expect(contact).toHaveAttribute('href', '/contact-us');
      await waitFor(() => expect(contact).toHaveFocus());
      // The tooltip stays shut while the popover is open.
      expect(screen.queryByRole('tooltip')).toBeNull();

      await user.keyboard('{Escape}');
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
      await waitFor(() => expect(lock).toHaveFocus());
      expect(lock).toHaveAttribute('aria-expanded', 'false');
      // Back on the lock, the tooltip does not come back by itself.
      await act(async () => {
        await new Promise((r) => setTimeout(r, 400));
      });
      expect(screen.queryByRole('tooltip')).toBeNull();
    });

    it('reaches the lock with Tab and follows the Contact us link with the keyboard', async () => {
      const user = userEvent.setup();
      render(<Harness f={flags(['twt'])} trial />);
      screen.getByRole('button', { name: 'Before' }).focus();
      const lock = screen.getByRole('button', { name: 'Facebook is locked on trial' });
      // Twitter's box, then the locks in the order shown.
      for (let i = 0; i < 10 && document.activeElement !== lock; i++) await user.tab();
      expect(lock).toHaveFocus();
      // Focused, the lock shows its tooltip.
      expect(await screen.findByRole('tooltip')).toHaveTextContent('listening for specified Facebook accounts is not available on trial. Contact us');
      await user.keyboard(' ');
      const pop = await screen.findByRole('dialog', { name: 'listening for specified Facebook accounts is not available on trial' });
      const contact = within(pop).getByRole('link', { name: 'Contact us' });
      await waitFor(() => expect(contact).toHaveFocus());
      await user.keyboard('{Enter}');
      expect(await screen.findByRole('heading', { name: 'Contact us', level: 1 })).toBeInTheDocument();
    });

    it('a click opens the popover too, and a click on the lock again closes it', async () => {
      const user = userEvent.setup();
      render(<Harness f={flags(['twt'])} trial />);
      const lock = screen.getByRole('button', { name: 'YouTube is locked on trial' });
      await user.click(lock);
      expect(await screen.findByTestId('trial-lock-popover')).toHaveTextContent('listening for specified YouTube accounts is not available on trial. Contact us');
      await user.click(lock);
      await waitFor(() => expect(screen.queryByTestId('trial-lock-popover')).toBeNull());
    });
  });

  it('shows no locks outside a trial', () => {
    render(<Harness f={flags(['twt'])} />);
    expect(screen.queryByRole('button', { name: /locked on trial/ })).toBeNull();
  });
});

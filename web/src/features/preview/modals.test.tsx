import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PlatformFlags } from '../../api/types';
import { HIGH_VOLUME_TEXT, HighVolumeModal } from './HighVolumeModal';
import { lockNote, NO_DATA_PAID, NO_DATA_TITLE, NO_DATA_TRIAL, NoDataModal } from './NoDataModal';

afterEach(cleanup);

const flags = { twt: 1, ig: 0, yt: 0, fb: 0, tt: 0, news: 0, blogs: 0, forums: 0 } as PlatformFlags;
const paid = { trial: false, allowFacebook: true, allowTiktok: true, allowYoutube: true };

describe('NoDataModal', () => {
  it('non-trial: the 2-week text; typing enables Search; searching shows Searching... and passes term and platforms', async () => {
    let finish: () => void = () => {};
    const onSearch = vi.fn(() => new Promise<void>((r) => (finish = r)));
    render(<NoDataModal open onOpenChange={() => {}} access={paid} platforms={flags} onSearch={onSearch} onHistorical={() => {}} />);
    expect(screen.getByText(NO_DATA_TITLE)).toBeInTheDocument();
    expect(screen.getByText(NO_DATA_PAID)).toBeInTheDocument();
    expect(screen.queryByText(NO_DATA_TRIAL)).not.toBeInTheDocument();
    const submit = screen.getByRole('button', { name: 'Search' });
    expect(submit).toBeDisabled();
    fireEvent.change(screen.getByRole('textbox', { name: 'Search term' }), { target: { value: '   ' } });
    expect(submit).toBeDisabled();
    fireEvent.change(screen.getByRole('textbox', { name: 'Search term' }), { target: { value: ' espresso ' } });
    fireEvent.click(screen.getByRole('checkbox', { name: 'Instagram' }));
    expect(submit).toBeEnabled();
    fireEvent.click(submit);
    expect(await screen.findByRole('button', { name: 'Searching...' })).toBeDisabled();
    expect(screen.getByRole('textbox', { name: 'Search term' })).toBeDisabled();
    expect(onSearch).toHaveBeenCalledWith('espresso', { ...flags, ig: 1 });
    finish();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Search' })).toBeEnabled());
  });

  it('a failed search re-enables the form and says so', async () => {
    const onSearch = vi.fn(() => Promise.reject(new Error('boom')));
    render(<NoDataModal open onOpenChange={() => {}} access={paid} platforms={flags} onSearch={onSearch} onHistorical={() => {}} />);
    fireEvent.change(screen.getByRole('textbox', { name: 'Search term' }), { target: { value: 'espresso' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByText('Unable to get posts. Please try again.')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Search term' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Search' })).toBeEnabled();
  });

  it('trial: the 24-hour text with historical data and keep-collecting options; no platform can be unchecked to none', () => {
    const onHistorical = vi.fn();
    const onOpenChange = vi.fn();
    render(
      <MemoryRouter>
        <NoDataModal open onOpenChange={onOpenChange} access={{ ...paid, trial: true }} platforms={flags} onSearch={vi.fn()} onHistorical={onHistorical} />
      </MemoryRouter>,
    );
    expect(screen.getByText(NO_DATA_TRIAL)).toBeInTheDocument();
    expect(screen.queryByText(NO_DATA_PAID)).not.toBeInTheDocument();
    // The locked platforms say why, as the header and the tracker form do, with the way to ask.
    const why = 'listening for specified YouTube, Facebook and TikTok accounts is not available on trial.';
    for (const name of ['YouTube', 'Facebook', 'TikTok']) {
      expect(screen.getByRole('checkbox', { name })).toBeDisabled();
      expect(screen.getByRole('checkbox', { name })).toHaveAccessibleDescription(why);
    }
    expect(screen.getByRole('checkbox', { name: 'Instagram' })).not.toHaveAccessibleDescription();
    expect(screen.getByTestId('platform-lock-note')).toHaveTextContent(`${why} Contact us`);
    expect(screen.getByRole('link', { name: 'Contact us' })).toHaveAttribute('href', '/contact-us');
    fireEvent.click(screen.getByRole('button', { name: 'Get historical data' }));
    expect(onHistorical).toHaveBeenCalledTimes(1);
    fireEvent.click(screen.getByRole('button', { name: 'Keep collecting' }));
    expect(onOpenChange).toHaveBeenCalledWith(false);
    fireEvent.change(screen.getByRole('textbox', { name: 'Search term' }), { target: { value: 'x' } });
    fireEvent.click(screen.getByRole('checkbox', { name: 'Twitter' }));
    expect(screen.getByRole('button', { name: 'Search' })).toBeDisabled();
  });
});

describe('lockNote', () => {
  it('names the trial-locked platforms together, and those the account lacks apart', () => {
    expect(lockNote([])).toBe('');
    expect(lockNote([{ label: 'TikTok', lock: 'trial' }])).toBe('listening for specified TikTok accounts is not available on trial.');
    expect(
      lockNote([
        { label: 'YouTube', lock: 'not_allowed' },
        { label: 'Facebook', lock: 'trial' },
        { label: 'TikTok', lock: 'trial' },
      ]),
    ).toBe('listening for specified Facebook and TikTok accounts is not available on trial. YouTube is not enabled for your account.');
    expect(lockNote([{ label: 'YouTube', lock: 'not_allowed' }, { label: 'TikTok', lock: 'not_allowed' }])).toBe('YouTube and TikTok are not enabled for your account.');
  });
});

describe('HighVolumeModal', () => {
  it('from the creation flow: edit keywords or let it continue', async () => {
    const onStop = vi.fn(async () => {});
    const onContinue = vi.fn();
    render(<HighVolumeModal open estimate={{ total: 750_000, windowDays: 14 }} fromCreation onStop={onStop} onContinue={onContinue} />);
    expect(screen.getByText(HIGH_VOLUME_TEXT)).toBeInTheDocument();
    expect(screen.getByText('750,000')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Stop and delete' })).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Let it continue' }));
    expect(onContinue).toHaveBeenCalledTimes(1);
    fireEvent.click(screen.getByRole('button', { name: 'Edit keywords' }));
    await waitFor(() => expect(onStop).toHaveBeenCalledTimes(1));
  });

  it('elsewhere: stop and delete; a failed delete says so', async () => {
    const onStop = vi.fn(() => Promise.reject(new Error('no')));
    render(<HighVolumeModal open estimate={null} fromCreation={false} onStop={onStop} onContinue={() => {}} />);
    fireEvent.click(screen.getByRole('button', { name: 'Stop and delete' }));
    expect(await screen.findByText('The tracker could not be deleted. Please try again.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Stop and delete' })).toBeEnabled();
  });
});

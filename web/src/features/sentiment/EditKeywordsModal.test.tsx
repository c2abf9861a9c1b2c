import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mockApi, renderRoute } from '../../lib/test-utils';
import { trackerFixture } from '../trackers/fixtures';
import { EditKeywordsModal } from './EditKeywordsModal';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});
beforeEach(() => {
  document.cookie = 'hark_csrf=tok123';
});

const saved = { positive: ['love'], neutral: [], negative: ['refund'] };

function setup(answer: { status?: number; body?: unknown }) {
  const tracker = trackerFixture();
  const onOpenChange = vi.fn();
  const calls = mockApi({ [`PUT /trackers/${tracker.hash}/sentiment-keywords`]: () => answer });
  renderRoute(<EditKeywordsModal hash={tracker.hash} saved={saved} open onOpenChange={onOpenChange} />, { path: '/', url: '/' });
  return { calls, onOpenChange, tracker };
}

describe('Edit Sentiment Keywords', () => {
  it('saves only when the lists changed, moving a keyword between lists, and asks for re-analysis', async () => {
    const { calls, onOpenChange, tracker } = setup({ body: trackerFixture() });
    const dialog = within(await screen.findByRole('dialog', { name: 'Edit Sentiment Keywords' }));
    const save = dialog.getByRole('button', { name: 'Save' });
    const again = dialog.getByRole('button', { name: 'Save and Reanalyze' });
    expect(save).toBeDisabled();
    expect(again).toBeDisabled();
    // The empty neutral list shows one blank input and no remove button for it.
    const neutral = dialog.getByLabelText('Neutral keyword 1');
    expect(neutral).toHaveValue('');
    expect(dialog.queryByRole('button', { name: 'Remove neutral keyword 1' })).not.toBeInTheDocument();
    fireEvent.change(neutral, { target: { value: 'Refund' } });
    fireEvent.blur(neutral);
    // "refund" left the negative list, which keeps one blank input.
    expect(dialog.getByLabelText('Negative keyword 1')).toHaveValue('');
    expect(save).toBeEnabled();
    fireEvent.click(again);
    await waitFor(() => expect(onOpenChange).toHaveBeenCalledWith(false));
    const put = calls.find((c) => c.method === 'PUT');
    expect(put?.path).toBe(`/trackers/${tracker.hash}/sentiment-keywords`);
    expect(put?.body).toEqual({ positive: ['love'], neutral: ['Refund'], negative: [], reanalyze: true });
  });

  it('shows the server error and stays open', async () => {
    const { onOpenChange } = setup({ status: 422, body: { error: { code: 'keyword_too_long', message: 'A keyword has at most 100 characters.' } } });
    const dialog = within(await screen.findByRole('dialog'));
    fireEvent.click(dialog.getByRole('button', { name: 'Add positive keyword' }));
    const input = dialog.getByLabelText('Positive keyword 2');
    fireEvent.change(input, { target: { value: 'great' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Save' }));
    expect(await dialog.findByRole('alert')).toHaveTextContent('A keyword has at most 100 characters.');
    expect(onOpenChange).not.toHaveBeenCalledWith(false);
  });
});

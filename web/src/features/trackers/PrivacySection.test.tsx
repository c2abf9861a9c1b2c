import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockApi, renderRoute } from '../../lib/test-utils';
import { trackerFixture } from './fixtures';
import { PrivacySection } from './PrivacySection';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('PrivacySection', () => {
  it('turns facebook anonymisation on through its endpoint', async () => {
    const calls = mockApi({
      'PUT /trackers/abc/anonymize-facebook': (c) => ({ body: trackerFixture({ hash: 'abc', anonymizeFacebook: (c.body as { enabled: boolean }).enabled }) }),
    });
    renderRoute(<PrivacySection hash="abc" anonymizeFacebook={false} />, { path: '/x', url: '/x' });
    const box = screen.getByRole('checkbox', { name: /Anonymise Facebook posts/ });
    expect(box).not.toBeChecked();
    expect(box).toHaveAccessibleDescription(/Hide the names and pictures of Facebook authors/);
    fireEvent.click(box);
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    expect(calls.find((c) => c.method === 'PUT')!.body).toEqual({ enabled: true });
  });

  it('says so when the setting cannot be saved', async () => {
    mockApi({ 'PUT /trackers/abc/anonymize-facebook': () => ({ status: 403, body: { error: { code: 'forbidden', message: 'No' } } }) });
    renderRoute(<PrivacySection hash="abc" anonymizeFacebook />, { path: '/x', url: '/x' });
    fireEvent.click(screen.getByRole('checkbox', { name: /Anonymise Facebook posts/ }));
    expect(await screen.findByText('The setting could not be saved. Please try again.')).toBeInTheDocument();
  });
});

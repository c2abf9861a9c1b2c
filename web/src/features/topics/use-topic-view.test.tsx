// The page's tab and layer over history moves: Back and Forward show the view of the entry they
// land on, and a header change (which rewrites the query without the tab and path) keeps the view
// without a history entry of its own.
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryRouter, Route, Routes, useLocation, useNavigate } from 'react-router';
import { useTopicView } from './use-topic-view';

afterEach(cleanup);

const PATH = '/hashtag-tracking/trending-topics/abc/coffee';

function Probe() {
  const { view, go } = useTopicView();
  const navigate = useNavigate();
  const loc = useLocation();
  return (
    <div>
      <p data-testid="view">{`${view.kind}|${view.path.map((t) => `${t.kind}:${t.text}`).join(',')}`}</p>
      <p data-testid="search">{decodeURIComponent(loc.search)}</p>
      <button onClick={() => go({ kind: 'hashtag', path: view.path })}>Hashtags</button>
      <button onClick={() => go({ kind: 'word', path: view.path })}>Words</button>
      <button onClick={() => go({ kind: view.kind, path: [...view.path, { kind: view.kind, text: 'brew' }] }, { page: 1 })}>Drill</button>
      <button onClick={() => go(view, { page: 2 })}>Next</button>
      {/* The header's controls: the shared state alone, as useTrackerQuery writes it. */}
      <button onClick={() => navigate({ pathname: loc.pathname, search: '?days=7' })}>Last 7 days</button>
      <button onClick={() => navigate(-1)}>Back</button>
      <button onClick={() => navigate(1)}>Forward</button>
    </div>
  );
}

function open(url = PATH) {
  render(
    <MemoryRouter initialEntries={[url]}>
      <Routes>
        <Route path="/hashtag-tracking/:page/:hash/:friendly" element={<Probe />} />
      </Routes>
    </MemoryRouter>,
  );
}

const view = () => screen.getByTestId('view').textContent;
const search = () => screen.getByTestId('search').textContent;
const press = (name: string) => act(() => fireEvent.click(screen.getByRole('button', { name })));

describe('useTopicView over history moves', () => {
  it('Back and Forward return the tab, the layer and the page of each entry', () => {
    open();
    expect(view()).toBe('word|');
    press('Hashtags');
    expect(search()).toBe('?kind=hashtag');
    press('Drill');
    expect(search()).toBe('?kind=hashtag&path=hashtag:brew');
    press('Next');
    expect(search()).toBe('?page=2&kind=hashtag&path=hashtag:brew');

    press('Back');
    expect(view()).toBe('hashtag|hashtag:brew');
    expect(search()).toBe('?kind=hashtag&path=hashtag:brew');
    press('Back');
    expect(view()).toBe('hashtag|');
    press('Back');
    expect(view()).toBe('word|');
    expect(search()).toBe('');
    press('Forward');
    expect(view()).toBe('hashtag|');
    expect(search()).toBe('?kind=hashtag');
    press('Forward');
    expect(view()).toBe('hashtag|hashtag:brew');
    press('Forward');
    expect(search()).toBe('?page=2&kind=hashtag&path=hashtag:brew');
    expect(view()).toBe('hashtag|hashtag:brew');
  });

  it('keeps the view over a header change, with one history entry for it', () => {
    open();
    press('Hashtags');
    press('Drill');
    press('Last 7 days');
    expect(view()).toBe('hashtag|hashtag:brew');
    expect(search()).toBe('?days=7&kind=hashtag&path=hashtag:brew');

    // One Back undoes the header change; Forward brings it back with the view.
    press('Back');
    expect(search()).toBe('?kind=hashtag&path=hashtag:brew');
    expect(view()).toBe('hashtag|hashtag:brew');
    press('Forward');
    expect(search()).toBe('?days=7&kind=hashtag&path=hashtag:brew');
    expect(view()).toBe('hashtag|hashtag:brew');

    // Back to the entry before the tab switch shows the default view, not the last one shown,
    // and a header change from there keeps that default view.
    press('Back');
    press('Back');
    press('Back');
    expect(search()).toBe('');
    expect(view()).toBe('word|');
    press('Last 7 days');
    expect(view()).toBe('word|');
    expect(search()).toBe('?days=7');
  });

  it('opens the view of a reloaded URL', () => {
    open(`${PATH}?sort=trend%3Basc&kind=hashtag&path=word%3Acoffee`);
    expect(view()).toBe('hashtag|word:coffee');
  });
});

import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { PostItem } from '../../api/queries/posts';
import { INDIRECT_MATCH_NOTE, PostDetail } from './PostDetail';

afterEach(cleanup);

function item(over: Partial<PostItem> = {}): PostItem {
  return {
    key: 'youtube;v1',
    post: { platform: 'youtube', id: 'v1', text: 'A walk in the hills', author: { username: 'hiker', name: 'Hiker' }, createdAt: 0, counts: {}, flags: {} },
    sentiment: 0,
    sentimentBucket: 'neutral',
    sentimentEdited: false,
    sentimentMethod: 'model',
    engagement: 3,
    engagementRate: null,
    reach: 0,
    impressions: 0,
    country: null,
    postType: 'original',
    isNew: false,
    anonymized: false,
    indirectMatch: false,
    tags: [],
    ...over,
  };
}

function open(it: PostItem) {
  render(
    <PostDetail item={it} now={Date.now()} canManage={false} onClose={() => {}} onSentiment={() => {}} onIgnore={() => {}} sentimentBusy={false} />,
  );
}

describe('PostDetail', () => {
  it('notes an indirect match', () => {
    open(item({ indirectMatch: true }));
    expect(screen.getByTestId('indirect-note')).toHaveTextContent(INDIRECT_MATCH_NOTE);
    expect(INDIRECT_MATCH_NOTE).toBe('The matched search term for this post may be found in the comments');
  });

  it('has no note for a direct match', () => {
    open(item());
    expect(screen.getByText('A walk in the hills')).toBeInTheDocument();
    expect(screen.queryByTestId('indirect-note')).toBeNull();
  });

  it('says when a lexicon estimated the sentiment', () => {
    open(item({ sentimentMethod: 'lexicon' }));
    expect(screen.getByText('sentiment estimated from a lexicon')).toBeInTheDocument();
  });

  it('has no lexicon note for the model or a manual edit', () => {
    open(item());
    expect(screen.queryByText('sentiment estimated from a lexicon')).toBeNull();
    cleanup();
    open(item({ sentimentMethod: 'lexicon', sentimentEdited: true }));
    expect(screen.queryByText('sentiment estimated from a lexicon')).toBeNull();
  });
});

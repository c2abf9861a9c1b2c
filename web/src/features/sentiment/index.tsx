// Sentiment: score, sentiment over time, significant keywords and posts, each in its empty state.
import { useState } from 'react';
import { Button } from '../../components/Button';
import { EmptyState } from '../../components/EmptyState';
import { useShell } from '../shell/context';
import { EditKeywordsModal } from './EditKeywordsModal';
import { Panel } from '../../components/Panel';
import { SENTIMENT_BUCKETS } from '../../state/query-state';
import { SENTIMENT_LABELS } from '../posts';

export default function SentimentPage() {
  const { tracker, access } = useShell();
  const [editing, setEditing] = useState(false);
  const canEditKeywords = access.canManage && !access.demo && !access.embed;
  return (
    <div className="grid grid-cols-12 gap-4 p-6">
      {canEditKeywords && (
        <div className="col-span-12 flex justify-end">
          <Button variant="secondary" size="sm" onClick={() => setEditing(true)}>
            Edit Sentiment Keywords
          </Button>
          <EditKeywordsModal hash={tracker.hash} saved={tracker.sentimentKeywords} open={editing} onOpenChange={setEditing} />
        </div>
      )}
      <Panel title="Sentiment Score" id="sentimentScore" className="col-span-12 lg:col-span-4">
        <ul className="space-y-2 py-2">
          {SENTIMENT_BUCKETS.map((b) => (
            <li key={b} className="flex items-center justify-between text-sm">
              <span className="text-slate-600">{SENTIMENT_LABELS[b]}</span>
              <span className="tabular-nums font-medium text-slate-400">0%</span>
            </li>
          ))}
        </ul>
      </Panel>
      <Panel title="Sentiment Over Time" id="sentimentTime" className="col-span-12 lg:col-span-8">
        <EmptyState graphic="PlatformsWithArrowUp" compact />
      </Panel>
      <Panel title="Significant Keywords" id="significantKeywords" className="col-span-12 lg:col-span-6">
        <EmptyState graphic="BullhornEllipsesWithHashtags" compact />
      </Panel>
      <Panel title="Posts" id="sentimentPosts" className="col-span-12 lg:col-span-6">
        <EmptyState graphic="BullhornHashtagSpeechBubble" compact />
      </Panel>
    </div>
  );
}

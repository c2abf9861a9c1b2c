// Trending topics: the topic list and the trend over time, each in its empty state.
import { EmptyState } from '../../components/EmptyState';
import { Panel } from '../../components/Panel';

export default function TopicsPage() {
  return (
    <div className="grid grid-cols-12 gap-4 p-6">
      <Panel title="Trending Topics" id="trendingTopics" className="col-span-12 lg:col-span-5">
        <div className="grid grid-cols-[2fr_1fr_1fr] gap-3 border-b border-slate-100 py-2 text-xs font-semibold uppercase tracking-wide text-slate-500" aria-hidden="true">
          <span>Topic</span>
          <span>Mentions</span>
          <span>Trend</span>
        </div>
        <EmptyState graphic="BullhornEllipsesWithHashtags" compact />
      </Panel>
      <Panel title="Topic Trends Over Time" id="topicTrends" className="col-span-12 lg:col-span-7">
        <EmptyState graphic="PlatformsWithArrowUp" />
      </Panel>
      <Panel title="Posts Mentioning Topics" id="topicPosts" className="col-span-12">
        <EmptyState graphic="BullhornHashtagSpeechBubble" compact />
      </Panel>
    </div>
  );
}

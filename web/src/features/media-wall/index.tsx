// Media wall: its sub-header controls (locked until media arrives) and the wall in its empty state.
import { useState } from 'react';
import { EmptyState } from '../../components/EmptyState';
import { IconCode, IconExpand, IconSettings, IconShare } from '../../components/icons';
import { controlClass, SubHeader } from '../../components/Panel';
import { SearchInput } from '../../components/SearchInput';
import { useShell } from '../shell/context';
import { EmbedDialog } from '../shell/EmbedDialog';
import { embedPageLabel } from '../shell/embed';

export default function MediaWallPage() {
  const { access, query, tracker } = useShell();
  const [embedOpen, setEmbedOpen] = useState(false);
  const moderate = access.canManage;
  const dark = query.mediaWall.theme === 'dark';
  return (
    <div>
      <SubHeader label="Media wall controls">
        {moderate ? (
          <>
            <SearchInput value="" onChange={() => undefined} placeholder="Find a Post" disabled clearLabel="Clear search" width="w-60" />
            <select aria-label="Post visibility" disabled className="h-9 rounded-md border border-slate-300 bg-white px-2 text-sm text-slate-700 disabled:opacity-50" defaultValue="1">
              <option value="1">Public</option>
              <option value="0">Only You</option>
              <option value="-1">All Posts</option>
            </select>
            <label className="inline-flex items-center gap-2 text-sm text-slate-500">
              <input type="checkbox" role="switch" disabled className="h-4 w-4 accent-brand-600" />
              Media Wall Moderation
            </label>
            <button type="button" className={controlClass} disabled>
              <IconShare size={14} />
              Share Moderation
            </button>
            <button type="button" className={controlClass} disabled title="Advanced Settings">
              <IconSettings size={14} />
              Settings
            </button>
          </>
        ) : null}
        <div className="ml-auto flex gap-2">
          <button type="button" className={controlClass} disabled title="Nothing to show in full screen yet">
            <IconExpand size={14} />
            Full Screen
          </button>
          {access.canEmbed ? (
            <button type="button" className={controlClass} onClick={() => setEmbedOpen(true)} aria-haspopup="dialog">
              <IconCode size={14} />
              Embed
            </button>
          ) : null}
        </div>
      </SubHeader>
      <div className="p-6">
        <div className={`rounded-xl border shadow-sm ${dark ? 'border-slate-800 bg-slate-900 [&_p]:text-slate-300 [&_p:first-of-type]:text-white' : 'border-slate-200 bg-white'}`}>
          <EmptyState graphic="PlatformsWithLightningBolt" />
        </div>
      </div>
      {embedOpen ? (
        <EmbedDialog open onOpenChange={setEmbedOpen} hash={tracker.hash} target={{ page: 'media-wall' }} label={embedPageLabel('media-wall')} />
      ) : null}
    </div>
  );
}

// What every tracker page knows: the tracker, the caller, access rules and the URL state.
import { createContext, useContext } from 'react';
import type { Me, PlatformCode, Tracker } from '../../api/types';
import type { Access } from '../../state/access';
import type { Range } from '../../state/date-range';
import type { FilterQuery } from '../../state/filter-query';
import type { QueryState, TrackerPage, Updater } from '../../state/query-state';

export interface ShellContextValue {
  tracker: Tracker;
  me: Me | undefined;
  access: Access;
  page: TrackerPage;
  query: QueryState;
  update: (fn: Updater, opts?: { replace?: boolean }) => void;
  /** The instant the page state was resolved at. */
  now: number;
  range: Range;
  /** Platforms selected in the header (the page's defaults applied). */
  platforms: PlatformCode[];
  filters: FilterQuery;
  /** Href of another page of this tracker, keeping share, demo and header filters. */
  hrefFor: (page: TrackerPage) => string;
  openHistorical: () => void;
}

export const ShellContext = createContext<ShellContextValue | null>(null);

export function useShell(): ShellContextValue {
  const v = useContext(ShellContext);
  if (!v) throw new Error('useShell outside a tracker page');
  return v;
}

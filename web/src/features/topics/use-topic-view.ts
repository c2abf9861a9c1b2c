// The page's place in the URL: the tab (kind) and the drill-down path beside the shared page
// state (sort, page, header filters). The header's controls rewrite the query from the shared
// state alone, which leaves the tab and path out; a change that is not a history move (Back or
// Forward) and drops them keeps the view shown and puts them back into the URL.
import { useCallback, useEffect, useMemo, useRef } from 'react';
import { useLocation, useNavigate, useNavigationType } from 'react-router';
import type { Sort } from '../../state/query-state';
import { hasViewParams, isDefaultView, readView, viewSearch, type TopicView } from './topics-data';

export function useTopicView() {
  const location = useLocation();
  const navigate = useNavigate();
  const navType = useNavigationType();
  const fromUrl = useMemo(() => readView(location.search), [location.search]);
  const last = useRef<TopicView>(fromUrl);
  const dropped = navType !== 'POP' && !hasViewParams(location.search) && !isDefaultView(last.current);
  const view = dropped ? last.current : fromUrl;

  useEffect(() => {
    last.current = view;
    if (dropped) navigate({ pathname: location.pathname, search: viewSearch(location.search, view) }, { replace: true });
  }, [dropped, view, navigate, location.pathname, location.search]);

  // The search as last set, so two changes in a row each start from the one before.
  const latest = useRef(location.search);
  latest.current = location.search;

  /** Moves to another view, page or sort (a new history entry: Back returns to the one before). */
  const go = useCallback(
    (next: TopicView, patch: { page?: number; sort?: Sort | null } = {}) => {
      last.current = next;
      const search = viewSearch(latest.current, next, patch);
      latest.current = search;
      navigate({ pathname: location.pathname, search });
    },
    [navigate, location.pathname],
  );

  /** The href of another view (for links: a new tab or a copied link opens the same layer). */
  const href = useCallback(
    (next: TopicView, patch: { page?: number; sort?: Sort | null } = {}) => location.pathname + viewSearch(location.search, next, patch),
    [location.pathname, location.search],
  );

  return { view, go, href };
}

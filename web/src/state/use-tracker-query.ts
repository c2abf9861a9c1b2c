// React binding of the URL query state: read the typed state, change it with pure updaters.
import { useCallback, useMemo, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { parseQuery, toSearch, type QueryState, type TrackerPage, type Updater } from './query-state';

export function useTrackerQuery(page: TrackerPage) {
  const location = useLocation();
  const navigate = useNavigate();
  const state = useMemo(() => parseQuery(location.search), [location.search]);
  // The query as last set: two updates in a row (Reset, then a sort chosen before the page
  // re-rendered) each start from the one before, not from the query of the last render.
  const latest = useRef(location.search);
  latest.current = location.search;
  const update = useCallback(
    (fn: Updater, opts?: { replace?: boolean }) => {
      const next: QueryState = fn(parseQuery(latest.current));
      const search = toSearch(next, page);
      latest.current = search;
      navigate({ pathname: location.pathname, search }, { replace: opts?.replace });
    },
    [navigate, location.pathname, page],
  );
  return { state, update };
}

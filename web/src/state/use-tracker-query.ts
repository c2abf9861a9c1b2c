// React binding of the URL query state: read the typed state, change it with pure updaters.
import { useCallback, useMemo } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { parseQuery, toSearch, type QueryState, type TrackerPage, type Updater } from './query-state';

export function useTrackerQuery(page: TrackerPage) {
  const location = useLocation();
  const navigate = useNavigate();
  const state = useMemo(() => parseQuery(location.search), [location.search]);
  const update = useCallback(
    (fn: Updater, opts?: { replace?: boolean }) => {
      const next: QueryState = fn(parseQuery(location.search));
      navigate({ pathname: location.pathname, search: toSearch(next, page) }, { replace: opts?.replace });
    },
    [navigate, location.pathname, location.search, page],
  );
  return { state, update };
}

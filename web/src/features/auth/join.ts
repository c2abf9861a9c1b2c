// Where an accepted invitation leads. The accept answer names no tracker, so the joined tracker
// is found in the caller's tracker list by its title: with exactly one tracker of that title it
// is the one just joined and its dashboard opens; otherwise (two of the same title, a list that
// could not be read) the tracker list does, where the new tracker is listed.
import type { Tracker } from '../../api/types';
import { trackerPath } from '../../state/routes';

export const TRACKER_LIST = '/mytracks/hashtag';

export function joinedTrackerPath(trackers: Pick<Tracker, 'hash' | 'friendly' | 'title'>[] | undefined, title: string): string {
  const matches = (trackers ?? []).filter((t) => t.title === title);
  return matches.length === 1 ? trackerPath('dashboard', matches[0].hash, matches[0].friendly) : TRACKER_LIST;
}

/** The sign-in page, coming back to this invitation afterwards. */
export function signInToJoin(token: string): string {
  return `/login?next=${encodeURIComponent(`/join/${token}`)}`;
}

// A member's rank on a tracker (the API's `permission`): 1 viewer, 2 editor, 3 administrator,
// 4 the owner. Names and one-line summaries for the Team dialog and the invitation page.

export const VIEWER = 1;
export const EDITOR = 2;
export const ADMINISTRATOR = 3;
export const OWNER = 4;

/** The ranks a member can be given, lowest first. */
export const MEMBER_RANKS = [
  { value: VIEWER, name: 'Viewer', summary: 'Reads the tracker’s pages.' },
  { value: EDITOR, name: 'Editor', summary: 'Also edits the search and requests historical data.' },
  { value: ADMINISTRATOR, name: 'Administrator', summary: 'Also shares, exports, tags and moderates posts, and manages the team.' },
] as const;

export function rankName(permission: number): string {
  if (permission >= OWNER) return 'Owner';
  return MEMBER_RANKS.find((r) => r.value === permission)?.name ?? 'No access';
}

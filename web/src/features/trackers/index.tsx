// Placeholder until the tracker pages land.
export function TrackerListPage() { return null; }
export function NewTrackerPage() { return null; }
export function EditTrackerPage() { return null; }

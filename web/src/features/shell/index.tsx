// Placeholder until the tracker page shell lands.
export function TrackerShell() { return null; }

// Placeholder until the info pages land.
export function StaticInfoPage(_props: { kind: 'pricing' | 'contact' }) { return null; }

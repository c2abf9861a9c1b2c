// Placeholder until the auth pages land.
export function SetupPage() { return null; }
export function LoginPage() { return null; }
export function HomeRedirect() { return null; }

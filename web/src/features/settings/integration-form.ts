// What the Integrations page shows of the Google Sheets set-up, and of a key before it is sent.
import type { GoogleSheetsIntegration } from '../../api/queries/integrations';

export type SheetsStatus = 'not_configured' | 'unchecked' | 'working' | 'failed';

export const MISSING_KEY_TEXT = 'Choose the key file, drop it here, or paste its text.';

export function sheetsStatus(view: Pick<GoogleSheetsIntegration, 'configured' | 'check'>): SheetsStatus {
  if (!view.configured) return 'not_configured';
  if (view.check.state === 'ok') return 'working';
  if (view.check.state === 'failed') return 'failed';
  return 'unchecked';
}

/** The last test of the saved key, in words. */
export function checkLabel(check: GoogleSheetsIntegration['check']): string {
  if (check.state === 'ok') return 'OK: Google accepted the key.';
  if (check.state === 'failed') return `Failed${check.message ? `: ${check.message}` : '.'}`;
  return 'Not tested yet.';
}

export interface KeyPreview {
  /** The text looks like a service account key. */
  ok: boolean;
  text: string;
}

/**
 * A first look at a chosen key, before the server checks it: whose it is when it reads as a
 * service account key, or what seems off (the server still decides, and says why it refuses one).
 */
export function keyPreview(text: string): KeyPreview {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { ok: false, text: 'This does not read as JSON; a key file from Google Cloud is a JSON file.' };
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return { ok: false, text: 'This is not a service account key.' };
  const k = parsed as Record<string, unknown>;
  const email = typeof k.client_email === 'string' ? k.client_email : null;
  const project = typeof k.project_id === 'string' ? k.project_id : null;
  if (k.type !== 'service_account' || !email) return { ok: false, text: 'This does not look like a service account key.' };
  return { ok: true, text: `Service account ${email}${project ? ` of project ${project}` : ''}` };
}

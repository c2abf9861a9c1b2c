// Turns anything thrown by an API call into the text shown to the user.
import { ApiError } from '../api/client';

export const UNKNOWN_ERROR = 'An unknown error occurred.';

export function errorMessage(err: unknown): string {
  if (err instanceof ApiError && err.message) return err.message;
  return UNKNOWN_ERROR;
}

/** Server field errors (422) keyed by field name; the first message per field wins. */
export function fieldErrors(err: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (err instanceof ApiError) {
    for (const f of err.fields) if (!(f.field in out)) out[f.field] = f.message;
  }
  return out;
}

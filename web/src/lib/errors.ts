// Turns anything thrown by an API call into the text shown to the user.
import { ApiError } from '../api/client';

export const UNKNOWN_ERROR = 'An unknown error occurred.';

export function errorMessage(err: unknown): string {
  if (err instanceof ApiError && err.message) return err.message;
  return UNKNOWN_ERROR;
}

/** A failed load's text when the server gave no message. */
export const FETCH_ERROR = 'Sorry, an error occurred please try again.';

/** The text of a failed load: the server's message, or the plain apology when there is none. */
export function loadErrorMessage(err: unknown): string {
  const message = errorMessage(err);
  return message === UNKNOWN_ERROR ? FETCH_ERROR : message;
}

/** Server field errors (422) keyed by field name; the first message per field wins. */
export function fieldErrors(err: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (err instanceof ApiError) {
    for (const f of err.fields) if (!(f.field in out)) out[f.field] = f.message;
  }
  return out;
}

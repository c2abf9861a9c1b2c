// Pure helpers of the connector settings form.
import type { Connector, ConnectorInput, ConnectorStatus } from '../../api/queries/collection';

export interface ConnectorFormValues {
  enabled: boolean;
  baseUrl: string;
  values: Record<string, string>;
  /** Saved secrets the administrator chose to erase. */
  clear: string[];
}

/** The form's starting values: saved plain values; secrets start blank (blank keeps them). */
export function formFromConnector(c: Connector): ConnectorFormValues {
  const values: Record<string, string> = {};
  for (const f of c.fields) values[f.name] = f.secret ? '' : (f.value ?? '');
  return { enabled: c.enabled, baseUrl: c.baseUrl ?? '', values, clear: [] };
}

/** What is missing before the connector can be switched on, by field name. */
export function missingRequired(c: Connector, v: ConnectorFormValues): Record<string, string> {
  const out: Record<string, string> = {};
  if (!v.enabled) return out;
  for (const f of c.fields) {
    if (!f.required) continue;
    const typed = (v.values[f.name] ?? '').trim() !== '';
    const kept = f.secret && f.isSet && !v.clear.includes(f.name);
    if (!typed && !kept) out[f.name] = `${f.label} is needed to switch this connector on.`;
  }
  return out;
}

export function baseUrlError(v: ConnectorFormValues, schemes: string[] = ['http://', 'https://']): string | null {
  const u = v.baseUrl.trim();
  if (!u) return null;
  const scheme = schemes.find((s) => u.toLowerCase().startsWith(s));
  const host = scheme ? u.slice(scheme.length) : '';
  return scheme && /^[^\s/?#]+/.test(host) && !/\s/.test(u) ? null : `Enter an address starting with ${schemes.join(' or ')}.`;
}

/** What the card says about how the connector needs and collects. */
export function needsText(c: Connector): string {
  const required = c.fields.filter((f) => f.required).map((f) => f.label.toLowerCase());
  const needs = required.length ? `Needs: ${required.join(', ')}.` : 'No key needed.';
  const how = c.collectsBy === 'stream' ? 'Reads one live stream for every running tracker.' : 'Polls each running tracker on a schedule.';
  return `${needs} ${how}`;
}

/** The request body: blank secrets are left out so the saved ones stay. */
export function toInput(c: Connector, v: ConnectorFormValues): ConnectorInput {
  const values: Record<string, string> = {};
  for (const f of c.fields) {
    const val = v.values[f.name] ?? '';
    if (f.secret && val.trim() === '') continue;
    values[f.name] = val;
  }
  return { enabled: v.enabled, baseUrl: c.hasBaseUrl ? v.baseUrl.trim() : undefined, values, clear: v.clear };
}

export const STATUS_LABELS: Record<ConnectorStatus, string> = {
  working: 'Working',
  error: 'Error',
  not_configured: 'Not configured',
  unchecked: 'Not checked yet',
};

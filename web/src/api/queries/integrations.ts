// The instance's integrations with outside services (administrators only): the Google Sheets
// service account that spreadsheet exports are made with. The key is sent once and never comes
// back; the view says whose it is and how its last check went.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { del, get, post, put } from '../client';
import type { Loose, Narrowed } from '../types';
import { exportKeys } from './exports';

export type IntegrationCheckState = 'unchecked' | 'ok' | 'failed';

/** GET/PUT /admin/integrations/google-sheets. Times are milliseconds since the epoch. */
export type GoogleSheetsIntegration = Narrowed<
  'SheetsSettings',
  { check: Narrowed<'IntegrationCheck', { state: IntegrationCheckState }> }
>;

/** `key`: the whole text of the service account's JSON key file; `apiBase` empty or null: Google's own addresses. */
export type GoogleSheetsInput = Loose<'SheetsInput'>;

const PATH = '/admin/integrations/google-sheets';

export const integrationKeys = {
  googleSheets: ['admin', 'integrations', 'google-sheets'] as const,
};

export function useGoogleSheetsIntegration(enabled: boolean) {
  return useQuery({
    queryKey: integrationKeys.googleSheets,
    queryFn: () => get<GoogleSheetsIntegration>(PATH),
    enabled,
    retry: false,
  });
}

/** Keeps the view, and what every page knows of the exports on offer, up to date. */
function useStore() {
  const qc = useQueryClient();
  return (view: GoogleSheetsIntegration | null) => {
    if (view) qc.setQueryData(integrationKeys.googleSheets, view);
    else void qc.invalidateQueries({ queryKey: integrationKeys.googleSheets });
    void qc.invalidateQueries({ queryKey: exportKeys.capabilities });
  };
}

/** PUT: a new key and/or API base URL. */
export function useSaveGoogleSheets() {
  const store = useStore();
  return useMutation({
    mutationFn: (input: GoogleSheetsInput) => put<GoogleSheetsIntegration>(PATH, input),
    onSuccess: (view) => store(view),
  });
}

/** POST …/check: asks Google for a token with the saved key. */
export function useCheckGoogleSheets() {
  const store = useStore();
  return useMutation({
    mutationFn: () => post<GoogleSheetsIntegration>(`${PATH}/check`),
    onSuccess: (view) => store(view),
  });
}

/** DELETE: the key is removed; spreadsheet exports are off until a new one is saved. */
export function useRemoveGoogleSheets() {
  const store = useStore();
  return useMutation({
    mutationFn: () => del<void>(PATH),
    onSuccess: () => store(null),
  });
}

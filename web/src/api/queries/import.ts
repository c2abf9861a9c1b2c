import { useMutation, useQueryClient } from '@tanstack/react-query';
import { postRaw } from '../client';
import type { ImportFormat, ImportResult } from '../types';
import { trackerKeys } from './trackers';

export interface ImportRequest {
  file: File;
  format: ImportFormat;
  /** CSV only: platform code the rows belong to. */
  platform?: string;
  /** CSV only: column mapping, "text=Body,created_at=Date". */
  map?: string;
}

export const IMPORT_CONTENT_TYPES: Record<ImportFormat, string> = {
  ndjson: 'application/x-ndjson',
  csv: 'text/csv',
};

/** POST /trackers/{hash}/import with the file as the body; refreshes the tracker's counts after. */
export function useImportPosts(hash: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ file, format, platform, map }: ImportRequest) =>
      postRaw<ImportResult>(`/trackers/${encodeURIComponent(hash)}/import`, file, IMPORT_CONTENT_TYPES[format], {
        format,
        platform: format === 'csv' ? platform : undefined,
        map: format === 'csv' ? map : undefined,
      }),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: trackerKeys.one(hash) });
      void qc.invalidateQueries({ queryKey: ['trackers', 'total', hash] });
      void qc.invalidateQueries({ queryKey: ['trackers', 'list'] });
    },
  });
}

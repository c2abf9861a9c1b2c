// The Embed dialog's call: the embed code of one dashboard chart or one page of a tracker.
import { useQuery } from '@tanstack/react-query';
import { get } from '../client';
import type { Schema } from '../types';

export type EmbedCode = Schema<'EmbedCode'>;

/** What to embed: one dashboard chart (with an optional `platform;value` card) or a whole page. */
export type EmbedTarget = { chart: string; card?: string | null } | { page: string };

export const embedCodeKey = (hash: string, target: EmbedTarget) => ['trackers', 'embed', hash, target] as const;

function embedQuery(target: EmbedTarget): Record<string, string> {
  if ('page' in target) return { page: target.page };
  return target.card ? { chart: target.chart, card: target.card } : { chart: target.chart };
}

/**
 * GET /trackers/{hash}/embed. Asked afresh each time the dialog opens: revoking the share link
 * changes every embed key.
 */
export function useEmbedCode(hash: string, target: EmbedTarget, enabled: boolean) {
  return useQuery({
    queryKey: embedCodeKey(hash, target),
    queryFn: () => get<EmbedCode>(`/trackers/${encodeURIComponent(hash)}/embed`, embedQuery(target)),
    enabled,
    retry: false,
    staleTime: 0,
    gcTime: 0,
  });
}

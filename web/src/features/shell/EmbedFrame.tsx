// The frame of an embedded chart or page (`embed=1`): no top bar, no sidebar, nothing that sends
// the visitor to sign in; a key that no longer opens the tracker says so in the frame.
import type { ReactNode } from 'react';
import { TooltipProvider } from '../../components/Tooltip';

export function EmbedFrame({ children }: { children: ReactNode }) {
  return (
    <TooltipProvider>
      <div className="min-h-screen bg-slate-100 text-slate-900" data-embed="true">
        {children}
      </div>
    </TooltipProvider>
  );
}

export const EMBED_UNAVAILABLE = 'This embed is no longer available.';

/** A revoked or wrong embed key (or a tracker gone): one line, no way in. */
export function EmbedUnavailable() {
  return (
    <div className="flex min-h-screen items-center justify-center p-4">
      <p role="alert" className="rounded-lg border border-slate-200 bg-white px-4 py-3 text-sm text-slate-600 shadow-sm">
        {EMBED_UNAVAILABLE}
      </p>
    </div>
  );
}

export function EmbedLoading() {
  return (
    <div className="p-4" aria-busy="true">
      <p className="sr-only">Loading...</p>
      <div className="h-64 animate-pulse rounded-xl bg-white" />
    </div>
  );
}

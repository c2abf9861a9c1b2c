// Customize: a 300 px right-hand slide-out listing the dashboard panels; closes on an outside
// click or Escape. Reordering and hiding arrive with the dashboard charts.
import * as Dialog from '@radix-ui/react-dialog';
import type { PlatformCode, Tracker } from '../../api/types';
import { IconPin, IconX } from '../../components/icons';
import { layoutPanels, PINNED_NOTE, PINNED_PANELS } from '../dashboard/panels';

export const CUSTOMIZE_PANEL_WIDTH = 300;

export function CustomizePanel({
  open,
  onOpenChange,
  tracker,
  platforms,
}: {
  open: boolean;
  onOpenChange: (o: boolean) => void;
  tracker: Tracker;
  platforms: PlatformCode[];
}) {
  const panels = layoutPanels(platforms, tracker.customConfig);
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-slate-900/10" />
        <Dialog.Content
          aria-describedby={undefined}
          style={{ width: CUSTOMIZE_PANEL_WIDTH }}
          className="fixed right-0 top-0 z-50 flex h-full flex-col border-l border-slate-200 bg-white shadow-2xl focus:outline-none"
        >
          <div className="flex items-center justify-between border-b border-slate-200 px-4 py-3">
            <Dialog.Title className="text-base font-semibold text-slate-900">Customize</Dialog.Title>
            <Dialog.Close aria-label="Close" className="rounded-md p-1 text-slate-400 hover:bg-slate-100 hover:text-slate-700 focus-visible:outline-2 focus-visible:outline-brand-600">
              <IconX />
            </Dialog.Close>
          </div>
          <div className="flex-1 overflow-y-auto p-4">
            <p className="mb-3 text-xs text-slate-500">{PINNED_NOTE}</p>
            <ul className="mb-4 space-y-1.5">
              {PINNED_PANELS.map((p) => (
                <li key={p.chart} className="flex items-center gap-2 rounded-md border border-slate-200 bg-slate-50 px-3 py-2 text-sm text-slate-600">
                  <IconPin size={14} />
                  {p.title}
                </li>
              ))}
            </ul>
            <h3 className="mb-2 text-xs font-semibold uppercase tracking-wide text-slate-500">Panels</h3>
            <ul className="space-y-1.5" aria-label="Dashboard panels">
              {panels.map((p) => (
                <li key={p.chart} className="flex items-center justify-between rounded-md border border-slate-200 px-3 py-2 text-sm text-slate-800">
                  <span>{p.title}</span>
                  {p.hidden ? <span className="rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-500">Hidden</span> : null}
                </li>
              ))}
            </ul>
            <p className="mt-4 text-xs text-slate-500">
              Chart columns: <span className="font-medium text-slate-700">{tracker.customConfig?.columns ?? 2}</span>
            </p>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

// Customize: a 300 px right-hand slide-out; closes on an outside click or Escape. Panels are
// reordered by drag and drop (pointer or keyboard), hidden and shown; administrators choose 2 or
// 3 chart columns. Changes apply at once and are saved after a 1 s debounce.
import * as Dialog from '@radix-ui/react-dialog';
import { closestCenter, DndContext, KeyboardSensor, PointerSensor, useSensor, useSensors, type DragEndEvent } from '@dnd-kit/core';
import { SortableContext, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useSaveCustomConfig } from '../../api/queries/dashboard';
import { trackerKeys } from '../../api/queries/trackers';
import type { ChartConfig, PlatformCode, Tracker } from '../../api/types';
import { IconPin, IconX } from '../../components/icons';
import { fullOrder, moveChart, PANELS, PINNED_NOTE, PINNED_PANELS } from '../dashboard/panels';

export const CUSTOMIZE_PANEL_WIDTH = 300;
export const CUSTOMIZE_SAVE_DEBOUNCE_MS = 1000;

type Config = { order: ChartConfig[]; columns: 2 | 3 };

/** Applies a config to the cached tracker at once and saves it after the debounce. */
function useDebouncedConfig(tracker: Tracker) {
  const qc = useQueryClient();
  const save = useSaveCustomConfig(tracker.hash);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const pending = useRef<Config | null>(null);
  const flush = () => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    if (pending.current) save.mutate(pending.current);
    pending.current = null;
  };
  useEffect(() => () => flush(), []); // eslint-disable-line react-hooks/exhaustive-deps
  return (config: Config) => {
    const key = trackerKeys.one(tracker.hash);
    const cached = qc.getQueryData<Tracker>(key);
    if (cached) qc.setQueryData<Tracker>(key, { ...cached, customConfig: config });
    pending.current = config;
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(flush, CUSTOMIZE_SAVE_DEBOUNCE_MS);
  };
}

function SortableRow({ item, title, applies, onToggle, disabled }: { item: ChartConfig; title: string; applies: boolean; onToggle: () => void; disabled: boolean }) {
  const { attributes, listeners, setNodeRef, transform, transition, isDragging } = useSortable({ id: item.chart, disabled });
  return (
    <li
      ref={setNodeRef}
      style={{ transform: CSS.Transform.toString(transform), transition }}
      className={`flex items-center gap-2 rounded-md border border-slate-200 bg-white px-2 py-1.5 text-sm ${isDragging ? 'z-10 shadow-lg' : ''} ${applies ? 'text-slate-800' : 'text-slate-400'}`}
      data-chart={item.chart}
    >
      <button
        type="button"
        className="cursor-grab touch-none rounded px-1 text-slate-400 hover:text-slate-700 focus-visible:outline-2 focus-visible:outline-brand-600"
        aria-label={`Move ${title}`}
        {...attributes}
        {...listeners}
      >
        ⋮⋮
      </button>
      <span className="flex-1 truncate" title={applies ? undefined : 'Not shown for the selected platforms'}>
        {title}
      </span>
      <label className="flex items-center gap-1 text-xs text-slate-500">
        <input type="checkbox" checked={!item.hide} onChange={onToggle} disabled={disabled} aria-label={`Show ${title}`} />
        Show
      </label>
    </li>
  );
}

export function CustomizePanel({
  open,
  onOpenChange,
  tracker,
  platforms,
  canEdit = false,
  canChooseColumns = false,
}: {
  open: boolean;
  onOpenChange: (o: boolean) => void;
  tracker: Tracker;
  platforms: PlatformCode[];
  /** Saving needs administrator rank on the tracker; others see the layout read-only. */
  canEdit?: boolean;
  /** Administrator rank and above (the owner, tracker and instance administrators). */
  canChooseColumns?: boolean;
}) {
  const order = fullOrder(tracker.customConfig);
  const columns = tracker.customConfig?.columns ?? 2;
  const apply = useDebouncedConfig(tracker);
  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 4 } }), useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }));
  const onDragEnd = (e: DragEndEvent) => {
    if (!e.over || e.active.id === e.over.id) return;
    apply({ order: moveChart(order, String(e.active.id), String(e.over.id)), columns });
  };
  const toggle = (chart: string) => apply({ order: order.map((o) => (o.chart === chart ? { ...o, hide: !o.hide } : o)), columns });
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
            {!canEdit ? <p className="mb-3 text-xs text-slate-500">Only the tracker's owner or an administrator can change the layout.</p> : null}
            <ul className="mb-4 space-y-1.5">
              {PINNED_PANELS.map((p) => (
                <li key={p.chart} className="flex items-center gap-2 rounded-md border border-slate-200 bg-slate-50 px-3 py-2 text-sm text-slate-600">
                  <IconPin size={14} />
                  {p.title}
                </li>
              ))}
            </ul>
            <h3 className="mb-2 text-xs font-semibold uppercase tracking-wide text-slate-500">Panels</h3>
            <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd}>
              <SortableContext items={order.map((o) => o.chart)} strategy={verticalListSortingStrategy}>
                <ul className="space-y-1.5" aria-label="Dashboard panels">
                  {order.map((o) => {
                    const def = PANELS.find((p) => p.chart === o.chart)!;
                    const applies = !def.platforms || def.platforms.some((c) => platforms.includes(c));
                    return <SortableRow key={o.chart} item={o} title={def.title} applies={applies} onToggle={() => toggle(o.chart)} disabled={!canEdit} />;
                  })}
                </ul>
              </SortableContext>
            </DndContext>
            <fieldset className="mt-5">
              <legend className="mb-2 text-xs font-semibold uppercase tracking-wide text-slate-500">Chart columns</legend>
              <div className="flex gap-2">
                {([2, 3] as const).map((n) => (
                  <label key={n} className={`flex items-center gap-1.5 rounded-md border px-3 py-1.5 text-sm ${columns === n ? 'border-brand-600 text-slate-900' : 'border-slate-200 text-slate-600'}`}>
                    <input type="radio" name="chart-columns" value={n} checked={columns === n} disabled={!canChooseColumns || !canEdit} onChange={() => apply({ order, columns: n })} />
                    {n} columns
                  </label>
                ))}
              </div>
              {!canChooseColumns ? <p className="mt-1 text-xs text-slate-500">Only administrators choose the column count.</p> : null}
            </fieldset>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

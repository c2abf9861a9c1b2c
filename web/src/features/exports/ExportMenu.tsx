// The dashboard header's Export menu: XLS for now. While a job is made the button shows its
// progress ("XLS 45%") and opens nothing; a plan without XLS gets the sample modal.
import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { useState } from 'react';
import { IconChevronDown, IconDownload, IconFileSheet, IconLock } from '../../components/icons';
import { Notice } from '../../components/Notice';
import { Spinner } from '../../components/Spinner';
import type { FilterQuery } from '../../state/filter-query';
import { SampleXlsModal, UPGRADE_TEXT } from './SampleXlsModal';
import { useDashboardExport } from './use-dashboard-export';

export interface ExportMenuProps {
  hash: string;
  filters: FilterQuery;
  shareHash: string | null;
  grouping: string | null;
  signedIn: boolean;
  /** The signed-in caller's plan includes XLS (`me.features.xls`). */
  xls: boolean;
  /** Inside an embed frame or in preview mode. */
  disabled: boolean;
  disabledReason?: string;
}

const trigger =
  'inline-flex h-9 items-center gap-2 rounded-md border border-slate-300 bg-white px-3 text-sm font-medium text-slate-700 shadow-sm hover:border-slate-400 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-brand-600 disabled:cursor-not-allowed disabled:opacity-50 aria-busy:cursor-progress aria-busy:border-brand-200 aria-busy:bg-brand-50 aria-busy:text-brand-700';

export function ExportMenu({ hash, filters, shareHash, grouping, signedIn, xls, disabled, disabledReason }: ExportMenuProps) {
  const [open, setOpen] = useState(false);
  const exp = useDashboardExport({ hash, filters, shareHash, grouping, planLacksXls: signedIn && !xls, resume: signedIn && !shareHash && !disabled });
  const locked = signedIn && !xls;
  return (
    <>
      <DropdownMenu.Root open={open && !exp.busy} onOpenChange={(o) => setOpen(o && !exp.busy)}>
        <DropdownMenu.Trigger
          className={trigger}
          disabled={disabled}
          title={disabled ? disabledReason : undefined}
          aria-busy={exp.busy || undefined}
          aria-disabled={exp.busy || undefined}
          data-testid="export-menu"
        >
          {exp.busy ? (
            <>
              <Spinner className="h-4 w-4" />
              <span className="tabular-nums">XLS {exp.percent}%</span>
            </>
          ) : (
            <>
              <IconDownload size={16} />
              Export
              <IconChevronDown size={14} />
            </>
          )}
        </DropdownMenu.Trigger>
        <DropdownMenu.Portal>
          <DropdownMenu.Content align="end" sideOffset={6} className="z-50 w-72 rounded-lg border border-slate-200 bg-white p-1 text-sm shadow-lg">
            <DropdownMenu.Label className="px-3 pb-1 pt-2 text-xs font-semibold uppercase tracking-wide text-slate-500">Export this dashboard</DropdownMenu.Label>
            <DropdownMenu.Item
              onSelect={() => {
                // Closed here: `open` reads false as soon as the job starts, so Radix has no close to report.
                setOpen(false);
                void exp.start();
              }}
              className="flex cursor-pointer items-start gap-3 rounded-md px-3 py-2 text-slate-700 outline-none data-[highlighted]:bg-slate-100"
              data-testid="export-xls"
            >
              <IconFileSheet size={18} className="mt-0.5 shrink-0 text-emerald-600" />
              <span className="min-w-0 flex-1">
                <span className="flex items-center gap-2 font-medium text-slate-900">
                  XLS
                  {locked ? <IconLock size={13} className="text-amber-600" /> : null}
                </span>
                <span className={`block text-xs ${locked ? 'font-medium text-amber-700' : 'text-slate-500'}`}>
                  {locked ? UPGRADE_TEXT : 'Every panel and post, as a workbook'}
                </span>
              </span>
            </DropdownMenu.Item>
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      </DropdownMenu.Root>
      {/* Told once when the export starts and once when it ends, not at every percent. */}
      <span role="status" className="sr-only">
        {exp.busy ? 'Preparing your XLS…' : ''}
      </span>
      <SampleXlsModal open={exp.sampleOpen} onOpenChange={exp.setSampleOpen} signedIn={signedIn} />
      <Notice key={exp.notice?.id} notice={exp.notice} onDone={exp.clearNotice} />
    </>
  );
}

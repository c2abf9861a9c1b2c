// The dashboard header's Export menu (spec: "spreadsheet, PDF, XLS"): Google Sheets, PDF and XLS.
// While a job is made the button shows its progress ("Google Sheets 40%", "XLS 45%", "PDF 40%",
// each made at once joined) and the item being made is disabled; a plan without XLS gets the
// sample modal for XLS. The PDF and Google Sheets are on every plan: the PDF's first click asks
// for it, its notice or the next click opens it in a new window. Google Sheets is disabled while
// no administrator has set it up.
import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { useMemo, useState } from 'react';
import { useExportCapabilities } from '../../api/queries/exports';
import { IconChevronDown, IconDownload, IconFileSheet, IconFileText, IconLock, IconTable } from '../../components/icons';
import { Notice } from '../../components/Notice';
import { Spinner } from '../../components/Spinner';
import type { FilterQuery } from '../../state/filter-query';
import type { EriMetric } from '../../state/query-state';
import { SHEETS_LABEL, SHEETS_NOT_SET_UP_TEXT } from './export-route';
import { SampleXlsModal, UPGRADE_TEXT } from './SampleXlsModal';
import { useDashboardExport } from './use-dashboard-export';
import { usePdfExport } from './use-pdf-export';
import { useSheetsExport } from './use-sheets-export';

export interface ExportMenuProps {
  hash: string;
  filters: FilterQuery;
  shareHash: string | null;
  grouping: string | null;
  /** The Timeline's Metric (null: 'Posts only') and running totals, for the PDF. */
  eri?: EriMetric | null;
  cumulative?: boolean;
  signedIn: boolean;
  /** The signed-in caller's plan includes XLS (`me.features.xls`). */
  xls: boolean;
  /** Inside an embed frame or in preview mode. */
  disabled: boolean;
  disabledReason?: string;
}

const trigger =
  'inline-flex h-9 items-center gap-2 rounded-md border border-slate-300 bg-white px-3 text-sm font-medium text-slate-700 shadow-sm hover:border-slate-400 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-brand-600 disabled:cursor-not-allowed disabled:opacity-50 aria-busy:cursor-progress aria-busy:border-brand-200 aria-busy:bg-brand-50 aria-busy:text-brand-700';

const item =
  'flex cursor-pointer items-start gap-3 rounded-md px-3 py-2 text-slate-700 outline-none data-[disabled]:cursor-default data-[highlighted]:bg-slate-100';

export function ExportMenu({ hash, filters, shareHash, grouping, eri = null, cumulative = false, signedIn, xls, disabled, disabledReason }: ExportMenuProps) {
  const [open, setOpen] = useState(false);
  const resume = signedIn && !shareHash && !disabled;
  const locked = signedIn && !xls;
  const exp = useDashboardExport({ hash, filters, shareHash, grouping, planLacksXls: locked, resume });
  const pdf = usePdfExport({ hash, source: 'dashboard', query: filters, shareHash, grouping, eri, cumulative, resume });
  const sheets = useSheetsExport({ hash, source: 'dashboard', query: filters, grouping, shareHash, resume });
  const capabilities = useExportCapabilities(!disabled);
  const sheetsOff = capabilities.data?.sheets === false;
  const busy = exp.busy || pdf.busy || sheets.busy;
  const progress = useMemo(
    () =>
      [sheets.busy ? `${SHEETS_LABEL} ${sheets.percent}%` : null, pdf.busy ? `PDF ${pdf.percent}%` : null, exp.busy ? `XLS ${exp.percent}%` : null]
        .filter(Boolean)
        .join(' · '),
    [exp.busy, exp.percent, pdf.busy, pdf.percent, sheets.busy, sheets.percent],
  );
  const making = [sheets.busy ? 'spreadsheet' : null, pdf.busy ? 'PDF' : null, exp.busy ? 'XLS' : null].filter(Boolean).join(' and ');
  return (
    <>
      <DropdownMenu.Root open={open} onOpenChange={setOpen}>
        <DropdownMenu.Trigger
          className={trigger}
          disabled={disabled}
          title={disabled ? disabledReason : undefined}
          aria-busy={busy || undefined}
          data-pdf-loading={pdf.busy || undefined}
          data-sheets-loading={sheets.busy || undefined}
          data-testid="export-menu"
        >
          {busy ? (
            <>
              <Spinner className="h-4 w-4" />
              <span className="tabular-nums">{progress}</span>
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
              onSelect={() => void sheets.start()}
              disabled={sheets.busy || sheetsOff}
              title={sheetsOff ? SHEETS_NOT_SET_UP_TEXT : undefined}
              className={`${item} data-[disabled]:text-slate-400`}
              data-testid="export-sheets"
            >
              <IconTable size={18} className={`mt-0.5 shrink-0 ${sheetsOff ? 'text-slate-300' : 'text-green-700'}`} />
              <span className="min-w-0 flex-1">
                <span className={`flex items-center gap-2 font-medium ${sheetsOff ? 'text-slate-500' : 'text-slate-900'}`}>
                  {SHEETS_LABEL}
                </span>
                {sheets.busy ? (
                  <Making percent={sheets.percent} />
                ) : sheetsOff ? (
                  <span className="block text-xs text-slate-500">Not set up on this server</span>
                ) : (
                  <span className="block text-xs text-slate-500">A spreadsheet to share online</span>
                )}
              </span>
            </DropdownMenu.Item>
            <DropdownMenu.Item onSelect={pdf.choose} disabled={pdf.busy} className={item} data-testid="export-pdf">
              <IconFileText size={18} className="mt-0.5 shrink-0 text-rose-600" />
              <span className="min-w-0 flex-1">
                <span className="block font-medium text-slate-900">PDF</span>
                {pdf.busy ? (
                  <Making percent={pdf.percent} />
                ) : pdf.ready ? (
                  <span className="block text-xs font-medium text-emerald-700">Ready: opens in a new window</span>
                ) : (
                  <span className="block text-xs text-slate-500">A report to view, print or share</span>
                )}
              </span>
            </DropdownMenu.Item>
            <DropdownMenu.Item onSelect={() => void exp.start()} disabled={exp.busy} className={item} data-testid="export-xls">
              <IconFileSheet size={18} className="mt-0.5 shrink-0 text-emerald-600" />
              <span className="min-w-0 flex-1">
                <span className="flex items-center gap-2 font-medium text-slate-900">
                  XLS
                  {locked ? <IconLock size={13} className="text-amber-600" /> : null}
                </span>
                {exp.busy ? (
                  <Making percent={exp.percent} />
                ) : (
                  <span className={`block text-xs ${locked ? 'font-medium text-amber-700' : 'text-slate-500'}`}>
                    {locked ? UPGRADE_TEXT : 'Every panel and post, as a workbook'}
                  </span>
                )}
              </span>
            </DropdownMenu.Item>
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      </DropdownMenu.Root>
      {/* Told once when an export starts and once when it ends, not at every percent. */}
      <span role="status" className="sr-only">
        {making ? `Preparing your ${making}…` : ''}
      </span>
      <SampleXlsModal
        open={exp.sampleOpen}
        onOpenChange={exp.setSampleOpen}
        signedIn={signedIn}
      />
      <Notice key={`sheets-${sheets.notice?.id}`} notice={sheets.notice} onDone={sheets.clearNotice} />
      <Notice key={exp.notice?.id} notice={exp.notice} onDone={exp.clearNotice} />
      <Notice key={`pdf-${pdf.notice?.id}`} notice={pdf.notice} onDone={pdf.clearNotice} />
    </>
  );
}

/** An item's line while its file is made. */
function Making({ percent }: { percent: number }) {
  return (
    <span className="flex items-center gap-1.5 text-xs font-medium text-brand-700">
      <Spinner className="h-3 w-3" />
      <span className="tabular-nums">Preparing… {percent}%</span>
    </span>
  );
}

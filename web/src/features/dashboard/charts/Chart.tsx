// An ECharts chart: loads the chart code on first use, resizes with its box, and offers the same
// data as a table for screen readers and keyboard users (a text alternative for every chart).
import { useCallback, useEffect, useRef, type ReactNode } from 'react';
import { useEChart } from './use-echart';

type Module = typeof import('./echarts');
let modulePromise: Promise<Module> | null = null;
export function loadCharts(): Promise<Module> {
  if (!modulePromise) modulePromise = import('./echarts');
  return modulePromise;
}

export interface ChartProps {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  option: Record<string, any>;
  /** One-sentence summary read by screen readers. */
  label: string;
  height?: number;
  /** The data as a table (the chart's text alternative). */
  table: ReactNode;
  needsWorld?: boolean;
  onClick?: (params: { dataIndex: number; seriesIndex?: number; name?: string }) => void;
  testId?: string;
}

export function Chart({ option, label, height = 260, table, needsWorld, onClick, testId }: ChartProps) {
  const box = useRef<HTMLDivElement>(null);
  const clickRef = useRef(onClick);
  clickRef.current = onClick;
  const load = useCallback(async () => {
    const m = await loadCharts();
    if (needsWorld) await m.loadWorld();
    return m;
  }, [needsWorld]);
  const { chart, ready } = useEChart(box, load, (c) => {
    c.on('click', (p: { dataIndex: number; seriesIndex?: number; name?: string }) => clickRef.current?.(p));
  });

  useEffect(() => {
    if (ready && chart.current) chart.current.setOption(option, { notMerge: true });
  }, [ready, option]);

  return (
    <figure className="m-0" data-testid={testId}>
      <div ref={box} role="img" aria-label={label} style={{ height, width: '100%' }} data-chart-ready={ready ? 'true' : 'false'} />
      <details className="mt-1 text-xs text-slate-500">
        <summary className="cursor-pointer select-none rounded px-1 py-0.5 hover:text-slate-700 focus-visible:outline-2 focus-visible:outline-brand-600">
          Data table
        </summary>
        <div className="mt-2 max-h-64 overflow-auto">{table}</div>
      </details>
    </figure>
  );
}

/** A compact two-or-more column table for chart alternatives and lists. */
export function DataTable({ head, rows, caption }: { head: string[]; rows: ReactNode[][]; caption?: string }) {
  return (
    <table className="w-full text-left text-xs text-slate-700">
      {caption ? <caption className="sr-only">{caption}</caption> : null}
      <thead>
        <tr>
          {head.map((h) => (
            <th key={h} scope="col" className="border-b border-slate-200 py-1 pr-2 font-semibold">
              {h}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((r, i) => (
          <tr key={i} className="border-b border-slate-100">
            {r.map((c, j) => (
              <td key={j} className="py-1 pr-2 tabular-nums">
                {c}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

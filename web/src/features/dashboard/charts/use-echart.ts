// The lifecycle every ECharts chart shares: the chart code loads on first use, the instance is
// created on the chart's box once it is mounted, follows the box's size, and is disposed with it.
import { useEffect, useRef, useState, type RefObject } from 'react';
import type { EChartsType, init } from 'echarts/core';

/** A loaded ECharts build: the dashboard's, or one with more components registered. */
export interface ChartsModule {
  echarts: { init: typeof init };
}

/**
 * An ECharts instance on `box`. `load` resolves the ECharts build (a stable function: a new one
 * creates the chart again); `onInit` wires the chart's own events once the instance exists.
 * `ready` turns true when the instance can take an option.
 */
export function useEChart(
  box: RefObject<HTMLElement | null>,
  load: () => Promise<ChartsModule>,
  onInit?: (chart: EChartsType) => void,
): { chart: RefObject<EChartsType | null>; ready: boolean } {
  const chart = useRef<EChartsType | null>(null);
  const [ready, setReady] = useState(false);
  const initRef = useRef(onInit);
  initRef.current = onInit;

  useEffect(() => {
    let disposed = false;
    let observer: ResizeObserver | null = null;
    load()
      .then((m) => {
        if (disposed || !box.current) return;
        const c = m.echarts.init(box.current, undefined, { renderer: 'canvas' });
        chart.current = c;
        initRef.current?.(c);
        if (typeof ResizeObserver !== 'undefined') {
          observer = new ResizeObserver(() => c.resize());
          observer.observe(box.current);
        }
        setReady(true);
      })
      .catch(() => undefined);
    return () => {
      disposed = true;
      observer?.disconnect();
      chart.current?.dispose();
      chart.current = null;
    };
  }, [box, load]);

  return { chart, ready };
}

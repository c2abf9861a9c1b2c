// The ECharts build the dashboard uses: only the charts and components it draws (tree-shaken
// imports from echarts/core). Loaded on demand so the app's initial JavaScript stays small.
import * as echarts from 'echarts/core';
import { BarChart, LineChart, MapChart, PieChart } from 'echarts/charts';
import {
  GridComponent,
  LegendComponent,
  MarkAreaComponent,
  MarkLineComponent,
  TooltipComponent,
  VisualMapComponent,
} from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';

echarts.use([
  BarChart,
  LineChart,
  MapChart,
  PieChart,
  GridComponent,
  LegendComponent,
  MarkAreaComponent,
  MarkLineComponent,
  TooltipComponent,
  VisualMapComponent,
  CanvasRenderer,
]);

let worldLoaded: Promise<void> | null = null;

/** Registers the world map (world-atlas, countries keyed by ISO numeric id) once. */
export function loadWorld(): Promise<void> {
  if (!worldLoaded) {
    worldLoaded = Promise.all([import('world-atlas/countries-110m.json'), import('topojson-client')]).then(([atlas, topo]) => {
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      const world = (atlas as any).default ?? atlas;
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      const fc = topo.feature(world, world.objects.countries) as any;
      for (const f of fc.features) {
        f.properties = { name: String(f.id ?? ''), label: f.properties?.name ?? '' };
      }
      echarts.registerMap('world', fc);
    });
  }
  return worldLoaded;
}

export { echarts };

// The dashboard's ECharts build plus the brush component (a period picked by dragging across
// the time axis). Loaded on demand, like the dashboard's charts.
import { BrushComponent } from 'echarts/components';
import { echarts } from '../dashboard/charts/echarts';

echarts.use([BrushComponent]);

export { echarts };

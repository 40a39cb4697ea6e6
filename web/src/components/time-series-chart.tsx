import { lazy, Suspense } from 'react';
import Spinner from 'react-bootstrap/Spinner';
import { defaultChartHeight } from './chart-format';
import type { TimeSeriesChartProps } from './time-series-chart-canvas';

export type { ChartSeries, TimeSeriesChartProps } from './time-series-chart-canvas';

// uPlot and its CSS are fetched the first time a chart is drawn, not with the app.
const TimeSeriesChartCanvas = lazy(async () => {
  const module = await import('./time-series-chart-canvas');
  return { default: module.TimeSeriesChartCanvas };
});

export function TimeSeriesChart(props: TimeSeriesChartProps) {
  return (
    <Suspense
      fallback={
        <div className="time-series-chart-loading" style={{ height: props.height ?? defaultChartHeight }}>
          <Spinner animation="border" size="sm" role="status">
            <span className="visually-hidden">Loading chart</span>
          </Spinner>
        </div>
      }
    >
      <TimeSeriesChartCanvas {...props} />
    </Suspense>
  );
}

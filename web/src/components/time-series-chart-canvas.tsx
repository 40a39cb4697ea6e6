import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { defaultChartHeight, formatChartValue, getChartYMax } from './chart-format';

export interface ChartSeries {
  label: string;
  values: readonly number[];
  color: string;
}

export interface TimeSeriesChartProps {
  /** Names the chart for assistive technology. */
  label: string;
  /** Seconds since the epoch, ascending. */
  times: readonly number[];
  series: readonly ChartSeries[];
  /** Appended to every value, e.g. '%'. */
  valueSuffix?: string;
  height?: number;
}

const fallbackWidth = 320;

function readUtcDate(seconds: number): Date {
  return uPlot.tzDate(new Date(seconds * 1000), 'Etc/UTC');
}

/** A uPlot line chart sized to its container; this module (and uPlot) loads only when a chart shows. */
export function TimeSeriesChartCanvas({
  label,
  times,
  series,
  valueSuffix = '',
  height = defaultChartHeight,
}: TimeSeriesChartProps) {
  const containerRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    const formatValue = (value: number | null) => formatChartValue(value, valueSuffix);
    const options: uPlot.Options = {
      width: container.clientWidth || fallbackWidth,
      height,
      tzDate: readUtcDate,
      scales: { x: { time: true }, y: { range: [0, getChartYMax(series.flatMap((line) => line.values))] } },
      series: [
        { label: 'Time (UTC)' },
        ...series.map((line) => ({
          label: line.label,
          stroke: line.color,
          width: 2,
          fill: `${line.color}1f`,
          points: { show: false },
          value: (_chart: uPlot, value: number | null) => formatValue(value),
        })),
      ],
      axes: [
        { stroke: '#5b6675', grid: { stroke: '#e2e6ec' } },
        {
          stroke: '#5b6675',
          grid: { stroke: '#e2e6ec' },
          size: 76,
          values: (_chart, splits) => splits.map((value) => formatValue(value)),
        },
      ],
    };
    const chart = new uPlot(options, [[...times], ...series.map((line) => [...line.values])], container);
    const observer = new ResizeObserver(() => {
      if (container.clientWidth > 0) chart.setSize({ width: container.clientWidth, height });
    });
    observer.observe(container);
    return () => {
      observer.disconnect();
      chart.destroy();
    };
  }, [times, series, valueSuffix, height]);

  return <div ref={containerRef} className="time-series-chart" role="figure" aria-label={label} />;
}

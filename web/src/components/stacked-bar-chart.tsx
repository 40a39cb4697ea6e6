import { useLayoutEffect, useRef, useState, type PointerEvent } from 'react';
import {
  findBarIndex,
  getBandedTotals,
  getBarChartScale,
  getLabelStride,
  getStackTotals,
  type BandPoint,
} from './stacked-bar-chart-layout';
import './stacked-bar-chart.css';

// Bars stacked by series, drawn on a canvas in one pass: a quarter of daily costs in nine groups is
// 810 rectangles, well under a millisecond, so the chart paints in the frame its data arrives in; no
// chart library is loaded for it.

export interface StackedBarSeries {
  label: string;
  /** One per category; the first series sits at the bottom of each stack. */
  values: readonly number[];
  color: string;
}

/** A forecast drawn after the bars: the range shaded, the expected value a line across it. */
export interface StackedBarBand {
  /** The legend's words for it. */
  label: string;
  /** One per category, null where there is no forecast; empty while the forecast loads. */
  points: readonly (BandPoint | null)[];
  color: string;
}

export interface StackedBarChartProps {
  /** Names the chart for assistive technology. */
  label: string;
  /** The x axis's buckets as written under the bars and in the tooltip. */
  categories: readonly string[];
  series: readonly StackedBarSeries[];
  /** A value in the tooltip. */
  formatValue: (value: number) => string;
  /** A value on the y axis (shorter); defaults to formatValue. */
  formatAxisValue?: (value: number) => string;
  height?: number;
  /** Bars alone: no axes, gridlines or legend, for a small chart inside a card. */
  isCompact?: boolean;
  band?: StackedBarBand;
}

interface PlotArea {
  left: number;
  width: number;
}

const inkColor = '#5b6675';
const gridColor = '#e2e6ec';
const fontSizePx = 12;
const axisGapPx = 8;
const xAxisHeightPx = 20;
const xLabelGapPx = 12;

type DrawnChart = Pick<
  StackedBarChartProps,
  'categories' | 'series' | 'formatValue' | 'formatAxisValue' | 'isCompact' | 'band'
>;

function drawChart(
  canvas: HTMLCanvasElement,
  width: number,
  height: number,
  { categories, series, formatValue, formatAxisValue = formatValue, isCompact = false, band }: DrawnChart,
): PlotArea | null {
  const ratio = window.devicePixelRatio || 1;
  canvas.width = Math.round(width * ratio);
  canvas.height = Math.round(height * ratio);
  canvas.style.width = `${width}px`;
  canvas.style.height = `${height}px`;
  const context = canvas.getContext('2d');
  if (!context) return null;
  context.setTransform(ratio, 0, 0, ratio, 0, 0);
  context.clearRect(0, 0, width, height);
  context.font = `${fontSizePx}px ${getComputedStyle(canvas).fontFamily || 'sans-serif'}`;

  const count = categories.length;
  const totals = getBandedTotals(getStackTotals(series, count), band?.points ?? []);
  const scale = getBarChartScale(totals);
  const tickLabels = scale.ticks.map((tick) => formatAxisValue(tick));
  const left = isCompact
    ? 0
    : Math.ceil(Math.max(0, ...tickLabels.map((text) => context.measureText(text).width))) + axisGapPx;
  const top = isCompact ? 1 : fontSizePx / 2 + 2;
  const bottom = height - (isCompact ? 1 : xAxisHeightPx);
  const plotWidth = Math.max(0, width - left - (isCompact ? 0 : 4));
  const plotHeight = Math.max(0, bottom - top);
  const toY = (value: number) => bottom - (value / scale.max) * plotHeight;

  if (!isCompact) {
    context.fillStyle = inkColor;
    context.textAlign = 'right';
    context.textBaseline = 'middle';
    scale.ticks.forEach((tick, index) => {
      const y = Math.round(toY(tick)) + 0.5;
      context.strokeStyle = gridColor;
      context.beginPath();
      context.moveTo(left, y);
      context.lineTo(left + plotWidth, y);
      context.stroke();
      context.fillText(tickLabels[index]!, left - axisGapPx / 2, y);
    });
  }

  const slotWidth = count > 0 ? plotWidth / count : 0;
  const gap = slotWidth >= 4 ? Math.max(1, slotWidth * 0.2) : 0;
  if (band) drawBand(context, band, { left, slotWidth, gap, toY });
  for (let index = 0; index < count; index += 1) {
    const x = left + index * slotWidth + gap / 2;
    let base = 0;
    for (const line of series) {
      const value = Math.max(0, line.values[index] ?? 0);
      if (value === 0) continue;
      const yTop = toY(base + value);
      context.fillStyle = line.color;
      context.fillRect(x, yTop, Math.max(1, slotWidth - gap), toY(base) - yTop);
      base += value;
    }
  }

  if (!isCompact && count > 0) {
    context.fillStyle = inkColor;
    context.textAlign = 'center';
    context.textBaseline = 'top';
    const labelWidths = categories.map((text) => context.measureText(text).width);
    const stride = getLabelStride(count, plotWidth, Math.max(...labelWidths) + xLabelGapPx);
    // A label is centred under its bar, kept inside the canvas, and left out where that would
    // crowd the one before it (the first and last are the ones pushed inwards).
    let lastRight = -Infinity;
    for (let index = 0; index < count; index += stride) {
      const halfWidth = labelWidths[index]! / 2;
      const x = Math.min(Math.max(left + (index + 0.5) * slotWidth, halfWidth), width - halfWidth);
      if (x - halfWidth < lastRight + xLabelGapPx) continue;
      context.fillText(categories[index]!, x, bottom + 4);
      lastRight = x + halfWidth;
    }
  }
  return { left, width: plotWidth };
}

interface BarSlots {
  left: number;
  slotWidth: number;
  gap: number;
  toY: (value: number) => number;
}

// Under the bars, so today's partial bar stays readable over its own forecast.
function drawBand(context: CanvasRenderingContext2D, band: StackedBarBand, slots: BarSlots) {
  const { left, slotWidth, gap, toY } = slots;
  const width = Math.max(1, slotWidth - gap);
  band.points.forEach((point, index) => {
    if (!point) return;
    const x = left + index * slotWidth + gap / 2;
    context.globalAlpha = 0.25;
    context.fillStyle = band.color;
    context.fillRect(x, toY(point.high), width, toY(point.low) - toY(point.high));
    context.globalAlpha = 1;
    context.fillRect(x, Math.round(toY(point.expected)) - 1, width, 2);
  });
}

interface Hover {
  index: number;
  x: number;
  /** The plot's width then, to open the tooltip towards the middle. */
  width: number;
}

function ChartTooltip({ hover, props }: { hover: Hover; props: StackedBarChartProps }) {
  const rows = props.series
    .map((line, index) => ({ line, index, value: line.values[hover.index] ?? 0 }))
    .filter(({ value }) => value !== 0);
  const total = rows.reduce((sum, { value }) => sum + value, 0);
  const forecast = props.band?.points[hover.index];
  const isOnRight = hover.x > hover.width / 2;
  return (
    <div
      className="bar-chart-tooltip"
      aria-hidden="true"
      style={{
        left: hover.x,
        transform: isOnRight ? 'translateX(calc(-100% - 12px))' : 'translateX(12px)',
      }}
    >
      <div className="bar-chart-tooltip-title">{props.categories[hover.index]}</div>
      {rows
        .slice()
        .reverse()
        .map(({ line, index, value }) => (
          <div key={index} className="bar-chart-tooltip-row">
            <span className="bar-chart-swatch" style={{ background: line.color }} />
            <span className="bar-chart-tooltip-label">{line.label}</span>
            <span>{props.formatValue(value)}</span>
          </div>
        ))}
      {rows.length > 1 ? (
        <div className="bar-chart-tooltip-row bar-chart-tooltip-total">
          <span className="bar-chart-tooltip-label">Total</span>
          <span>{props.formatValue(total)}</span>
        </div>
      ) : null}
      {forecast ? (
        <div className="bar-chart-tooltip-row bar-chart-tooltip-forecast">
          <span className="bar-chart-swatch bar-chart-band-swatch" style={{ color: props.band!.color }} />
          <span className="bar-chart-tooltip-label">Forecast</span>
          <span>
            {props.formatValue(forecast.expected)} ({props.formatValue(forecast.low)} to{' '}
            {props.formatValue(forecast.high)})
          </span>
        </div>
      ) : null}
    </div>
  );
}

export function StackedBarChart(props: StackedBarChartProps) {
  const {
    label,
    categories,
    series,
    formatValue,
    formatAxisValue,
    height = 220,
    isCompact = false,
    band,
  } = props;
  const containerRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const plotRef = useRef<PlotArea | null>(null);
  const [hover, setHover] = useState<Hover | null>(null);

  // Drawn before the browser paints the commit that brought the data, and again when the width
  // changes; a hover re-renders the tooltip alone.
  useLayoutEffect(() => {
    const container = containerRef.current;
    const canvas = canvasRef.current;
    if (!container || !canvas) return;
    const drawn = { categories, series, formatValue, formatAxisValue, isCompact, band };
    let drawnWidth = container.clientWidth;
    plotRef.current = drawChart(canvas, drawnWidth, height, drawn);
    const observer = new ResizeObserver(() => {
      if (container.clientWidth === drawnWidth || container.clientWidth === 0) return;
      drawnWidth = container.clientWidth;
      plotRef.current = drawChart(canvas, drawnWidth, height, drawn);
    });
    observer.observe(container);
    return () => observer.disconnect();
  }, [categories, series, formatValue, formatAxisValue, height, isCompact, band]);

  function onPointerMove(event: PointerEvent<HTMLCanvasElement>) {
    const plot = plotRef.current;
    if (!plot) return;
    const bounds = event.currentTarget.getBoundingClientRect();
    const x = event.clientX - bounds.left;
    const index = findBarIndex(x, plot.left, plot.width, categories.length);
    setHover(index === null ? null : { index, x, width: bounds.width });
  }

  return (
    <div className="bar-chart" role="figure" aria-label={label}>
      <div ref={containerRef} className="bar-chart-plot" style={{ height }}>
        <canvas ref={canvasRef} onPointerMove={onPointerMove} onPointerLeave={() => setHover(null)} />
        {hover ? <ChartTooltip hover={hover} props={props} /> : null}
      </div>
      {isCompact ? null : (
        <ul className="bar-chart-legend">
          {series.map((line, index) => (
            <li key={index}>
              <span className="bar-chart-swatch" style={{ background: line.color }} aria-hidden="true" />
              {line.label}
            </li>
          ))}
          {band ? (
            <li>
              <span
                className="bar-chart-swatch bar-chart-band-swatch"
                style={{ color: band.color }}
                aria-hidden="true"
              />
              {band.label}
            </li>
          ) : null}
        </ul>
      )}
    </div>
  );
}

import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import { noMetricsText } from '@cloudtrim/contracts/messages';
import type { Metric } from '@cloudtrim/contracts/metrics';
import { useMetricData } from '../api/get-metric-data';
import { useMetrics } from '../api/get-metrics';
import { describeLoadError } from '../../../lib/load-failure';
import { getMetricValueSuffix } from '../utils/get-metric-value-suffix';
import { canLoadMetricCard } from '../utils/metric-card-deferral';
import { TimeSeriesChart, type ChartSeries } from '../../../components/time-series-chart';
import { DataLoading } from '../../../components/data-loading';
import '../../../components/data-views.css';

const chartColor = '#0f6cbd';

type CardOutcome = 'data' | 'empty';

interface MetricChartCardProps {
  metric: Metric;
  canLoad: boolean;
  onSettle: (metricId: string, outcome: CardOutcome) => void;
}

function MetricChartCard({ metric, canLoad, onSettle }: MetricChartCardProps) {
  const metricData = useMetricData(metric.MetricId, { isEnabled: canLoad });
  const hasData = metricData.isSuccess && metricData.data.times.length > 0;
  const isSettled = metricData.isSuccess || metricData.isError;

  useEffect(() => {
    if (isSettled) onSettle(metric.MetricId, hasData ? 'data' : 'empty');
  }, [isSettled, hasData, metric.MetricId, onSettle]);

  const series = useMemo<ChartSeries[]>(
    () =>
      metricData.data ? [{ label: metric.Metric, values: metricData.data.values, color: chartColor }] : [],
    [metricData.data, metric.Metric],
  );

  // SPEC §4: a card with no data is hidden; so is one still waiting for its turn.
  if (!canLoad || (isSettled && !hasData)) return null;

  return (
    <Card className="chart-card">
      <Card.Body>
        <Card.Title as="h4">{metric.Metric}</Card.Title>
        {metricData.data ? (
          <TimeSeriesChart
            label={`${metric.Metric}, last 60 minutes`}
            times={metricData.data.times}
            series={series}
            valueSuffix={getMetricValueSuffix(metric.Metric)}
          />
        ) : (
          <DataLoading label={`Loading ${metric.Metric}`} isSmall />
        )}
      </Card.Body>
    </Card>
  );
}

function MetricChartGrid({ metrics }: { metrics: Metric[] }) {
  const [outcomes, setOutcomes] = useState<Readonly<Record<string, CardOutcome>>>({});

  const onSettle = useCallback((metricId: string, outcome: CardOutcome) => {
    setOutcomes((current) => (current[metricId] === outcome ? current : { ...current, [metricId]: outcome }));
  }, []);

  const isDoneByIndex = metrics.map((metric) => outcomes[metric.MetricId] !== undefined);
  const canLoadByIndex = metrics.map((_, index) => canLoadMetricCard(index, { isDoneByIndex }));
  const isEveryStartedCardDone = canLoadByIndex.every((canLoad, index) => !canLoad || isDoneByIndex[index]);
  const hasAnyData = Object.values(outcomes).includes('data');

  if (metrics.length === 0 || (isEveryStartedCardDone && !hasAnyData)) {
    return <p className="data-empty">{noMetricsText}</p>;
  }

  return (
    <div className="metrics-grid">
      {metrics.map((metric, index) => (
        <MetricChartCard
          key={metric.MetricId}
          metric={metric}
          canLoad={canLoadByIndex[index] ?? false}
          onSettle={onSettle}
        />
      ))}
    </div>
  );
}

interface MetricsPanelProps {
  resourceId: string;
  resourceName: string;
  onClose: () => void;
  /** Shown above the metric cards: what the app adds about the resource from other features (its cost). */
  children?: ReactNode;
}

/** A resource's metrics as one chart card each, the last 60 minutes (SPEC §4, §9). */
export function MetricsPanel({ resourceId, resourceName, onClose, children }: MetricsPanelProps) {
  const metrics = useMetrics(resourceId);

  return (
    <section className="metrics-panel" aria-label={`Metrics of ${resourceName}`}>
      <div className="metrics-panel-header">
        <h3 className="metrics-panel-title">Metrics of {resourceName}</h3>
        <Button variant="outline-secondary" size="sm" onClick={onClose}>
          CLOSE
        </Button>
      </div>
      {children}
      {metrics.isPending ? (
        <DataLoading label="Loading metrics" />
      ) : metrics.isError ? (
        <p className="data-empty text-danger">{describeLoadError(metrics.error)}</p>
      ) : (
        <MetricChartGrid metrics={metrics.data} />
      )}
    </section>
  );
}

import type { RecommendationEvidence as Evidence } from '@cloudtrim/contracts/recommendations';
import { useRecommendationEvidence } from '../api/get-recommendation-evidence';
import { describeLoadError } from '../../../lib/load-failure';
import { DataLoading } from '../../../components/data-loading';
import { TimeSeriesChart, type ChartSeries } from '../../../components/time-series-chart';
import '../../../components/data-views.css';
import './recommendation-list.css';

const currentColor = '#0d6efd';
const projectedColor = '#d9480f';
const thresholdColor = '#c92a2a';

type EvidenceSeries = Evidence['Series'][number];

// uPlot draws one x-axis for all lines, so an hour missing on either side is left out of both.
function buildChart(series: EvidenceSeries, evidence: Evidence) {
  const points = series.Points.filter(
    (point): point is { Time: string; Current: number; Projected: number } =>
      point.Current !== null && point.Projected !== null,
  );
  const times = points.map((point) => Date.parse(point.Time) / 1000);
  const lines: ChartSeries[] = [
    {
      label: `${series.Metric} on ${evidence.CurrentSize ?? 'current size'}`,
      values: points.map((point) => point.Current),
      color: currentColor,
    },
    {
      label: `${series.Metric} on ${evidence.TargetSize ?? 'new size'} (projected)`,
      values: points.map((point) => point.Projected),
      color: projectedColor,
    },
    { label: 'Threshold', values: points.map(() => series.Threshold), color: thresholdColor },
  ];
  return { times, lines };
}

function EvidenceChart({ series, evidence }: { series: EvidenceSeries; evidence: Evidence }) {
  const { times, lines } = buildChart(series, evidence);
  const title = `${series.Metric}: threshold ${series.Threshold}%`;
  return (
    <section className="evidence-chart">
      <h4 className="evidence-chart-title">{title}</h4>
      {times.length === 0 ? (
        <p className="data-empty">No {series.Metric} data in the last 14 days.</p>
      ) : (
        <TimeSeriesChart
          label={`${series.Metric} evidence for ${evidence.FriendlyName}`}
          times={times}
          series={lines}
          valueSuffix="%"
        />
      )}
    </section>
  );
}

/** Why a recommendation is made: the last 14 days on the current size and as projected on the new one. */
export function RecommendationEvidence({ recommendationId }: { recommendationId: number }) {
  const evidence = useRecommendationEvidence(recommendationId);
  if (evidence.isPending) return <DataLoading label="Loading evidence" isSmall />;
  if (evidence.isError) {
    return (
      <p className="text-danger mb-0" role="alert">
        {describeLoadError(evidence.error)}
      </p>
    );
  }
  const { data } = evidence;
  return (
    <div className="recommendation-evidence">
      <p className="evidence-summary">
        {data.CurrentSize && data.TargetSize
          ? `${data.FriendlyName}: ${data.CurrentSize} → ${data.TargetSize}, last 14 days`
          : `${data.FriendlyName}, last 14 days`}
      </p>
      {data.Series.length === 0 ? (
        <p className="data-empty">No evidence is recorded for this recommendation.</p>
      ) : (
        <div className="evidence-grid">
          {data.Series.map((series) => (
            <EvidenceChart key={series.Metric} series={series} evidence={data} />
          ))}
        </div>
      )}
    </div>
  );
}

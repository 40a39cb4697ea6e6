import Card from 'react-bootstrap/Card';
import { PageHeading } from '../../../components/page-heading';
import { TimeSeriesChart, type ChartSeries } from '../../../components/time-series-chart';
import { createDemoDiskSeries } from '../utils/create-demo-disk-series';
import '../../../components/data-views.css';

const demoSeries = createDemoDiskSeries();
const demoChartSeries: ChartSeries[] = [
  { label: 'Disk Read Operations/Sec', values: demoSeries.reads, color: '#0f6cbd' },
  { label: 'Disk Write Operations/Sec', values: demoSeries.writes, color: '#00a499' },
];
const demoChartTitle = 'Example: disk read and write operations per second';

/** SPEC's demo chart: fixed sample data drawn the way resource metrics are. */
export function Sandbox() {
  return (
    <>
      <PageHeading title="Sandbox" />
      <Card className="chart-card data-panel">
        <Card.Body>
          <Card.Title as="h2">{demoChartTitle}</Card.Title>
          <Card.Subtitle className="mb-3 text-body-secondary small">
            Sample data: one virtual machine&apos;s disk over an hour, one point a minute (UTC).
          </Card.Subtitle>
          <TimeSeriesChart
            label={demoChartTitle}
            times={demoSeries.times}
            series={demoChartSeries}
            height={300}
          />
        </Card.Body>
      </Card>
    </>
  );
}

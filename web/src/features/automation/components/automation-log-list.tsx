import Card from 'react-bootstrap/Card';
import Table from 'react-bootstrap/Table';
import { noAutomationLogsText } from '@cloudtrim/contracts/messages';
import type { AutomationLogEntry } from '@cloudtrim/contracts/recommendations';
import { formatUtcDateTime } from '../../../lib/format-date-time';
import { useAutomationLog } from '../api/get-automation-log';
import { describeLoadError, isNetworkFailure } from '../../../lib/load-failure';
import { DataLoading } from '../../../components/data-loading';
import { useLogListLayout } from '../../../lib/use-media-query';
import '../../../components/data-views.css';

function entryKey(entry: AutomationLogEntry, index: number): string {
  return `${entry.ResourceId}-${entry.When}-${index}`;
}

function AutomationLogTable({
  entries,
  isCondensed,
}: {
  entries: readonly AutomationLogEntry[];
  isCondensed: boolean;
}) {
  return (
    <Table responsive className="data-table automation-log-table">
      <thead>
        <tr>
          <th scope="col">RESOURCE</th>
          <th scope="col">WHEN</th>
          {isCondensed ? null : <th scope="col">PREDICTION METHOD</th>}
          <th scope="col">ACTION</th>
        </tr>
      </thead>
      <tbody>
        {entries.map((entry, index) => (
          <tr key={entryKey(entry, index)}>
            <td title={entry.ResourceId}>{entry.FriendlyName}</td>
            <td className="text-nowrap">{formatUtcDateTime(entry.When, { isCompact: isCondensed })}</td>
            {isCondensed ? null : <td>{entry.PredictionMethod}</td>}
            <td className="cell-wrap">
              {entry.Action}
              {isCondensed ? <div className="data-subtext">{entry.PredictionMethod}</div> : null}
            </td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}

function AutomationLogCards({ entries }: { entries: readonly AutomationLogEntry[] }) {
  return (
    <div className="data-card-list">
      {entries.map((entry, index) => (
        <Card key={entryKey(entry, index)} className="data-card">
          <Card.Body>
            <Card.Title as="h3" title={entry.ResourceId}>
              {entry.FriendlyName}
            </Card.Title>
            <dl className="data-card-fields">
              <dt>WHEN</dt>
              <dd>{formatUtcDateTime(entry.When)}</dd>
              <dt>PREDICTION METHOD</dt>
              <dd>{entry.PredictionMethod}</dd>
              <dt>ACTION</dt>
              <dd>{entry.Action}</dd>
            </dl>
          </Card.Body>
        </Card>
      ))}
    </div>
  );
}

/** SPEC's automation log list (FriendlyName, When, PredictionMethod, Action), the team's or one resource's. */
export function AutomationLogList({ resourceId }: { resourceId?: string }) {
  const layout = useLogListLayout();
  const automationLog = useAutomationLog(resourceId);
  if (automationLog.isPending) return <DataLoading label="Loading automation logs" />;
  if (automationLog.isError) {
    return isNetworkFailure(automationLog.error) ? (
      <p className="data-empty">{noAutomationLogsText}</p>
    ) : (
      <p className="data-error" role="alert">
        {describeLoadError(automationLog.error)}
      </p>
    );
  }
  const entries = automationLog.data;
  if (entries.length === 0) return <p className="data-empty">{noAutomationLogsText}</p>;
  return layout === 'cards' ? (
    <AutomationLogCards entries={entries} />
  ) : (
    <AutomationLogTable entries={entries} isCondensed={layout === 'condensed'} />
  );
}

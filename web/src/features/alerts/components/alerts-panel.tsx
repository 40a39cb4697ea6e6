import { useState } from 'react';
import { Link } from 'react-router';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import type { Alert } from '@cloudtrim/contracts/alerts';
import { pageSize } from '@cloudtrim/contracts/paging';
import { DataLoading } from '../../../components/data-loading';
import { Pagination } from '../../../components/pagination';
import { formatUtcDateTime } from '../../../lib/format-date-time';
import { formatCost } from '../../../lib/format-cost';
import { describeLoadError, isNetworkFailure } from '../../../lib/load-failure';
import { useIsReadOnly } from '../../../lib/my-role';
import { useAcknowledgeAlerts } from '../api/acknowledge-alerts';
import { useAlerts } from '../api/get-alerts';
import { alertLinkTexts, createAlertHref } from '../utils/alert-link';
import { formatAlertDay } from '../utils/format-alert-day';

export const noAlertsText = 'No alerts right now, check back later.';
const shownDriverCount = 3;

// A budget alert's Expected is the threshold it crossed; an anomaly's, what the day should have cost;
// an approval's Amount is what the waiting action saves a year, a failed pipeline run's what the
// changes it could not make would have saved.
function describeAmount(alert: Alert): string {
  const amount = formatCost(alert.Amount, alert.Currency);
  if (alert.Kind === 'approval') return `Saves ${amount} a year once done`;
  if (alert.Kind === 'pipeline') return `Not saving ${amount} a year until it is done`;
  if (alert.Expected === null) return amount;
  const expected = formatCost(alert.Expected, alert.Currency);
  return alert.Kind === 'budget'
    ? `${amount}, over the ${expected} threshold`
    : `${amount} against ${expected} expected`;
}

interface AlertItemProps {
  alert: Alert;
  isAcknowledging: boolean;
  /** A Viewer reads the team's alerts but cannot acknowledge them (the server refuses it). */
  isReadOnly: boolean;
  onAcknowledge: (alert: Alert) => void;
  onNavigate: () => void;
}

function AlertItem({ alert, isAcknowledging, isReadOnly, onAcknowledge, onNavigate }: AlertItemProps) {
  const isNew = alert.AcknowledgedAt === null;
  return (
    <li className={isNew ? 'alerts-item is-new' : 'alerts-item'}>
      <p className="alerts-item-title">
        {alert.Title}
        {isNew ? (
          <Badge bg="danger" className="ms-2">
            New
          </Badge>
        ) : null}
      </p>
      <p className="alerts-item-scope">{alert.Scope}</p>
      <p className="alerts-item-amount">{describeAmount(alert)}</p>
      {alert.Drivers.length > 0 ? (
        <p className="alerts-item-drivers">
          Driven by{' '}
          {alert.Drivers.slice(0, shownDriverCount)
            .map((driver) => `${driver.Name} (${formatCost(driver.Actual, alert.Currency)})`)
            .join(', ')}
        </p>
      ) : null}
      <p className="alerts-item-when">
        On {formatAlertDay(alert.Date)}, raised {formatUtcDateTime(alert.RaisedAt, { isCompact: true })}
      </p>
      <div className="alerts-item-actions">
        <Link to={createAlertHref(alert)} onClick={onNavigate}>
          {alertLinkTexts[alert.Kind]}
        </Link>
        {!isNew ? <span className="alerts-item-done">Acknowledged</span> : null}
        {isNew && !isReadOnly ? (
          <Button
            variant="outline-primary"
            size="sm"
            disabled={isAcknowledging}
            onClick={() => onAcknowledge(alert)}
            aria-label={`Acknowledge ${alert.Title}`}
          >
            ACKNOWLEDGE
          </Button>
        ) : null}
      </div>
    </li>
  );
}

interface AlertsPanelProps {
  /** Closes the panel, as following a link does. */
  onNavigate: () => void;
}

/** The team's alerts, newest first, 30 a page: each links to where it is looked into (/analysis,
 * /automation) and can be acknowledged. */
export function AlertsPanel({ onNavigate }: AlertsPanelProps) {
  const [page, setPage] = useState(1);
  const alerts = useAlerts((page - 1) * pageSize);
  const acknowledging = useAcknowledgeAlerts();
  const isReadOnly = useIsReadOnly();
  const shown = alerts.data?.Alerts ?? [];
  const unacknowledged = shown.filter((alert) => alert.AcknowledgedAt === null);

  function renderList() {
    if (alerts.isError && !alerts.data) {
      if (isNetworkFailure(alerts.error)) return <p className="data-empty">{noAlertsText}</p>;
      return (
        <p className="data-error" role="alert">
          {describeLoadError(alerts.error)}
        </p>
      );
    }
    if (!alerts.data) return <DataLoading label="Loading the alerts" isSmall />;
    if (shown.length === 0) return <p className="data-empty">{noAlertsText}</p>;
    return (
      <ul className="alerts-list" aria-label="Alerts">
        {shown.map((alert) => (
          <AlertItem
            key={alert.Id}
            alert={alert}
            isAcknowledging={acknowledging.isPending}
            isReadOnly={isReadOnly}
            onAcknowledge={(target) => acknowledging.mutate([target.Id])}
            onNavigate={onNavigate}
          />
        ))}
      </ul>
    );
  }

  return (
    <>
      <div className="alerts-panel-header">
        <h2 className="alerts-panel-title">Alerts</h2>
        {unacknowledged.length > 0 && !isReadOnly ? (
          <Button
            variant="link"
            size="sm"
            disabled={acknowledging.isPending}
            onClick={() => acknowledging.mutate(unacknowledged.map((alert) => alert.Id))}
          >
            ACKNOWLEDGE ALL
          </Button>
        ) : null}
      </div>
      {acknowledging.isError ? (
        <p className="data-error" role="alert">
          {describeLoadError(acknowledging.error)}
        </p>
      ) : null}
      {renderList()}
      {alerts.data && alerts.data.Total > pageSize ? (
        <Pagination
          currentPage={page}
          totalEntries={alerts.data.Total}
          onPageChange={setPage}
          label="Alerts pages"
        />
      ) : null}
    </>
  );
}

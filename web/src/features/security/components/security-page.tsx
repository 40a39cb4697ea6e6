import { useState } from 'react';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import Table from 'react-bootstrap/Table';
import { pageSize } from '@cloudtrim/contracts/paging';
import {
  defenderOffText,
  securitySeverities,
  securityStatuses,
  type SecurityFinding,
  type SecuritySummary,
} from '@cloudtrim/contracts/security';
import { DataLoading } from '../../../components/data-loading';
import { PageHeading } from '../../../components/page-heading';
import { Pagination } from '../../../components/pagination';
import { ApiError } from '../../../lib/api-client';
import { describeLoadError } from '../../../lib/load-failure';
import { useIsReadOnly } from '../../../lib/my-role';
import { logListTableMediaQuery, useMediaQuery } from '../../../lib/use-media-query';
import { useSecurityChecks } from '../api/get-security-checks';
import { useSecurityFindings } from '../api/get-security-findings';
import { useSecuritySummary } from '../api/get-security-summary';
import { exportSecurityFindings, useScanSecurity } from '../api/scan-security';
import {
  defaultFindingFilters,
  describeMute,
  formatPercent,
  noFindingsText,
  noScanYetText,
  severityLabels,
  severityTextColors,
  severityVariants,
  statusLabels,
  toggleSort,
  type FindingFilters,
} from '../utils/security-text';
import { FindingDetailModal } from './finding-detail-modal';
import './security.css';

export interface SecurityTenantOption {
  id: string;
  name: string;
}

function ScoreCards({ summary }: { summary: SecuritySummary }) {
  if (summary.Subscriptions.length === 0) return null;
  return (
    <section className="security-scores" aria-label="Secure score by subscription">
      {summary.Subscriptions.map((subscription) => (
        <Card key={`${subscription.TenantId}/${subscription.SubscriptionId}`} className="data-card">
          <Card.Body>
            <Card.Title as="h2" className="h6">
              {subscription.DisplayName}
            </Card.Title>
            {subscription.Score ? (
              <>
                <p className="h4 mb-1">{formatPercent(subscription.Score.Percentage)}</p>
                <p className="small text-body-secondary mb-2">
                  Secure score {subscription.Score.Current} of {subscription.Score.Max}
                </p>
                <div className="security-trend" aria-label={`Trend over ${subscription.Trend.length} days`}>
                  {subscription.Trend.map((point) => (
                    <span
                      key={point.Date}
                      title={`${point.Date}: ${formatPercent(point.Percentage)}`}
                      style={{ height: `${Math.max(2, Math.round(point.Percentage * 100))}%` }}
                    />
                  ))}
                </div>
              </>
            ) : (
              <p className="mb-0">{defenderOffText}</p>
            )}
          </Card.Body>
        </Card>
      ))}
    </section>
  );
}

function SeverityBadge({ finding }: { finding: SecurityFinding }) {
  return (
    <Badge bg={severityVariants[finding.Severity]} text={severityTextColors[finding.Severity]}>
      {severityLabels[finding.Severity]}
    </Badge>
  );
}

function SortHeading({
  label,
  sort,
  filters,
  onChange,
}: {
  label: string;
  sort: FindingFilters['sort'];
  filters: FindingFilters;
  onChange: (filters: FindingFilters) => void;
}) {
  const isSorted = filters.sort === sort;
  return (
    <th scope="col" aria-sort={isSorted ? (filters.order === 'asc' ? 'ascending' : 'descending') : 'none'}>
      <button type="button" className="security-sort" onClick={() => onChange(toggleSort(filters, sort))}>
        {label}
        {isSorted ? (filters.order === 'asc' ? ' ▲' : ' ▼') : ''}
      </button>
    </th>
  );
}

async function download(format: 'csv' | 'ocsf') {
  const blob = await exportSecurityFindings(format);
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = `cloudtrim-security.${format === 'csv' ? 'csv' : 'ocsf.json'}`;
  link.click();
  URL.revokeObjectURL(url);
}

/** /security: the score per subscription, counts by severity, the findings and a finding's detail. */
export function SecurityPage({ tenants }: { tenants: readonly SecurityTenantOption[] }) {
  const [filters, setFilters] = useState<FindingFilters>(defaultFindingFilters);
  const [page, setPage] = useState(1);
  const [openId, setOpenId] = useState<string | undefined>(
    () => new URLSearchParams(window.location.search).get('finding') ?? undefined,
  );
  const summary = useSecuritySummary();
  const checks = useSecurityChecks();
  const findings = useSecurityFindings(filters, (page - 1) * pageSize);
  const scan = useScanSecurity();
  // A Viewer reads only: no scan on demand (the sync's scans still run), no mute.
  const isReadOnly = useIsReadOnly();
  const isTable = useMediaQuery(logListTableMediaQuery);
  const tenantNames = new Map(tenants.map((tenant) => [tenant.id, tenant.name]));

  function changeFilters(next: FindingFilters) {
    setFilters(next);
    setPage(1);
  }

  const scanError =
    scan.error instanceof ApiError && scan.error.status === 429
      ? 'A scan ran less than a minute ago. Try again in a minute.'
      : scan.error
        ? 'The scan could not run. Try again.'
        : null;

  function renderFindings() {
    if (findings.isError) {
      return (
        <p className="data-error" role="alert">
          {describeLoadError(findings.error)}
        </p>
      );
    }
    if (!findings.data) return <DataLoading label="Loading the findings" />;
    const rows = findings.data.Data;
    if (rows.length === 0) {
      return <p className="data-empty">{summary.data?.LastScanAt ? noFindingsText : noScanYetText}</p>;
    }
    return (
      <>
        {isTable ? (
          <Table responsive hover className="data-table">
            <caption className="visually-hidden">Security findings</caption>
            <thead>
              <tr>
                <SortHeading label="SEVERITY" sort="Severity" filters={filters} onChange={changeFilters} />
                <SortHeading label="CHECK" sort="CheckId" filters={filters} onChange={changeFilters} />
                <SortHeading
                  label="RESOURCE"
                  sort="ResourceName"
                  filters={filters}
                  onChange={changeFilters}
                />
                <th scope="col">TENANT</th>
                <th scope="col">STATUS</th>
                <SortHeading label="LAST SEEN" sort="LastSeen" filters={filters} onChange={changeFilters} />
              </tr>
            </thead>
            <tbody>
              {rows.map((finding) => (
                <tr key={finding.Id}>
                  <td>
                    <SeverityBadge finding={finding} />
                  </td>
                  <td className="cell-wrap">
                    <Button variant="link" className="p-0 text-start" onClick={() => setOpenId(finding.Id)}>
                      {finding.Title}
                    </Button>
                  </td>
                  <td className="cell-wrap">{finding.ResourceName}</td>
                  <td>{tenantNames.get(finding.TenantId) ?? finding.TenantId}</td>
                  <td title={describeMute(finding) ?? undefined}>{statusLabels[finding.Status]}</td>
                  <td className="text-nowrap">{new Date(finding.LastSeen).toLocaleString()}</td>
                </tr>
              ))}
            </tbody>
          </Table>
        ) : (
          rows.map((finding) => (
            <Card key={finding.Id} className="data-card">
              <Card.Body>
                <Card.Title as="h3" className="h6">
                  <Button variant="link" className="p-0 text-start" onClick={() => setOpenId(finding.Id)}>
                    {finding.Title}
                  </Button>
                </Card.Title>
                <dl className="data-card-fields">
                  <dt>SEVERITY</dt>
                  <dd>
                    <SeverityBadge finding={finding} />
                  </dd>
                  <dt>RESOURCE</dt>
                  <dd>{finding.ResourceName}</dd>
                  <dt>STATUS</dt>
                  <dd>{statusLabels[finding.Status]}</dd>
                  <dt>LAST SEEN</dt>
                  <dd>{new Date(finding.LastSeen).toLocaleString()}</dd>
                </dl>
              </Card.Body>
            </Card>
          ))
        )}
        <Pagination
          currentPage={page}
          totalEntries={findings.data.Total}
          onPageChange={setPage}
          label="Findings pages"
        />
      </>
    );
  }

  return (
    <div className="security-page">
      <PageHeading
        title="Security"
        actions={
          <>
            <Button variant="outline-primary" size="sm" onClick={() => void download('csv')}>
              EXPORT CSV
            </Button>
            <Button variant="outline-primary" size="sm" onClick={() => void download('ocsf')}>
              EXPORT OCSF
            </Button>
            <Button size="sm" hidden={isReadOnly} disabled={scan.isPending} onClick={() => scan.mutate()}>
              {scan.isPending ? 'SCANNING…' : 'SCAN NOW'}
            </Button>
          </>
        }
      />
      {scanError ? (
        <p className="data-error" role="alert">
          {scanError}
        </p>
      ) : null}
      {summary.isError ? (
        <p className="data-error" role="alert">
          {describeLoadError(summary.error)}
        </p>
      ) : summary.data ? (
        <>
          <ScoreCards summary={summary.data} />
          <div className="security-counts" aria-label="Open findings by severity">
            {securitySeverities.map((severity) => (
              <Badge key={severity} bg={severityVariants[severity]} text={severityTextColors[severity]}>
                {severityLabels[severity]}: {summary.data.Counts[severity]}
              </Badge>
            ))}
            <Badge bg="light" text="dark">
              Muted: {summary.data.Muted}
            </Badge>
            <Badge bg="light" text="dark">
              Resolved: {summary.data.Resolved}
            </Badge>
          </div>
        </>
      ) : (
        <DataLoading label="Loading the security summary" />
      )}
      <Form className="security-filters" onSubmit={(event) => event.preventDefault()}>
        <Form.Control
          type="search"
          placeholder="Search resources, checks, evidence"
          aria-label="Search findings"
          value={filters.search}
          onChange={(event) => changeFilters({ ...filters, search: event.target.value })}
        />
        <Form.Select
          aria-label="Status"
          value={filters.status}
          onChange={(event) =>
            changeFilters({ ...filters, status: event.target.value as FindingFilters['status'] })
          }
        >
          <option value="">Any status</option>
          {securityStatuses.map((status) => (
            <option key={status} value={status}>
              {statusLabels[status]}
            </option>
          ))}
        </Form.Select>
        <Form.Select
          aria-label="Severity"
          value={filters.severity}
          onChange={(event) =>
            changeFilters({ ...filters, severity: event.target.value as FindingFilters['severity'] })
          }
        >
          <option value="">Any severity</option>
          {securitySeverities.map((severity) => (
            <option key={severity} value={severity}>
              {severityLabels[severity]}
            </option>
          ))}
        </Form.Select>
        <Form.Select
          aria-label="Check"
          value={filters.checkId}
          onChange={(event) => changeFilters({ ...filters, checkId: event.target.value })}
        >
          <option value="">Any check</option>
          {(checks.data?.Data ?? []).map((check) => (
            <option key={check.Id} value={check.Id}>
              {check.Title}
            </option>
          ))}
        </Form.Select>
        <Form.Select
          aria-label="Tenant"
          value={filters.tenantId}
          onChange={(event) => changeFilters({ ...filters, tenantId: event.target.value })}
        >
          <option value="">Any tenant</option>
          {tenants.map((tenant) => (
            <option key={tenant.id} value={tenant.id}>
              {tenant.name}
            </option>
          ))}
        </Form.Select>
      </Form>
      {renderFindings()}
      <FindingDetailModal findingId={openId} onHide={() => setOpenId(undefined)} />
    </div>
  );
}

import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Table from 'react-bootstrap/Table';
import { tenantOkStatus, type Tenant } from '@cloudtrim/contracts/tenants';
import { formatUtcDateTime } from '../../../lib/format-date-time';
import { tenantTableMediaQuery, useMediaQuery } from '../../../lib/use-media-query';
import { useIsReadOnly } from '../../../lib/my-role';

interface TenantListProps {
  tenants: readonly Tenant[];
  onRename: (tenant: Tenant) => void;
  onDelete: (tenant: Tenant) => void;
}

interface TenantViewProps extends TenantListProps {
  tenant: Tenant;
}

function TenantStatus({ tenant }: { tenant: Tenant }) {
  const isOk = tenant.Status === tenantOkStatus;
  return (
    <Badge bg={isOk ? 'success' : 'warning'} text={isOk ? undefined : 'dark'}>
      {tenant.Status}
    </Badge>
  );
}

function TenantHealth({ tenant }: { tenant: Tenant }) {
  return tenant.Healthy === 1 ? (
    <span className="text-success fw-semibold">Yes</span>
  ) : (
    <span className="text-danger fw-semibold">No</span>
  );
}

function TenantActions({ tenant, onRename, onDelete }: TenantViewProps) {
  // A Viewer reads only: no rename or delete.
  if (useIsReadOnly()) return null;
  return (
    <div className="d-flex gap-2 flex-wrap">
      <Button
        size="sm"
        variant="outline-secondary"
        aria-label={`Rename ${tenant.FriendlyName}`}
        onClick={() => onRename(tenant)}
      >
        RENAME
      </Button>
      <Button
        size="sm"
        variant="outline-danger"
        aria-label={`Delete ${tenant.FriendlyName}`}
        onClick={() => onDelete(tenant)}
      >
        DELETE
      </Button>
    </div>
  );
}

function TenantTable(props: TenantListProps) {
  return (
    <div className="data-panel">
      <Table responsive className="data-table">
        <thead>
          <tr>
            <th scope="col">NAME</th>
            <th scope="col">TYPE</th>
            <th scope="col">TENANT ID</th>
            <th scope="col">APPLICATION ID</th>
            <th scope="col">SECRET</th>
            <th scope="col">STATUS</th>
            <th scope="col">HEALTHY</th>
            <th scope="col">LAST SYNC</th>
            <th scope="col">RESOURCES</th>
            <th scope="col">ACTIONS</th>
          </tr>
        </thead>
        <tbody>
          {props.tenants.map((tenant) => (
            <tr key={tenant.Id}>
              <th scope="row">{tenant.FriendlyName}</th>
              <td>{tenant.Type}</td>
              <td className="font-monospace small">{tenant.TenantId}</td>
              <td className="font-monospace small">{tenant.ApplicationId}</td>
              <td>{tenant.ServicePrincipalSecret}</td>
              <td>
                <TenantStatus tenant={tenant} />
              </td>
              <td>
                <TenantHealth tenant={tenant} />
              </td>
              <td className="text-nowrap">{formatUtcDateTime(tenant.LastSync, { isCompact: true })}</td>
              <td>{tenant.ResourceCount}</td>
              <td>
                <TenantActions {...props} tenant={tenant} />
              </td>
            </tr>
          ))}
        </tbody>
      </Table>
    </div>
  );
}

function TenantCards(props: TenantListProps) {
  return (
    <div className="data-card-list">
      {props.tenants.map((tenant) => (
        <Card key={tenant.Id} className="data-card" as="article">
          <Card.Body>
            <Card.Title as="h3">{tenant.FriendlyName}</Card.Title>
            <dl className="data-card-fields mb-3">
              <dt>TYPE</dt>
              <dd>{tenant.Type}</dd>
              <dt>TENANT ID</dt>
              <dd className="font-monospace small">{tenant.TenantId}</dd>
              <dt>APPLICATION ID</dt>
              <dd className="font-monospace small">{tenant.ApplicationId}</dd>
              <dt>SECRET</dt>
              <dd>{tenant.ServicePrincipalSecret}</dd>
              <dt>STATUS</dt>
              <dd>
                <TenantStatus tenant={tenant} />
              </dd>
              <dt>HEALTHY</dt>
              <dd>
                <TenantHealth tenant={tenant} />
              </dd>
              <dt>LAST SYNC</dt>
              <dd>{formatUtcDateTime(tenant.LastSync, { isCompact: true })}</dd>
              <dt>RESOURCES</dt>
              <dd>{tenant.ResourceCount}</dd>
            </dl>
            <TenantActions {...props} tenant={tenant} />
          </Card.Body>
        </Card>
      ))}
    </div>
  );
}

/** SPEC §2: a table from 860px up, stacked cards below. Only whether a secret is stored is shown. */
export function TenantList(props: TenantListProps) {
  const isWide = useMediaQuery(tenantTableMediaQuery);
  return isWide ? <TenantTable {...props} /> : <TenantCards {...props} />;
}

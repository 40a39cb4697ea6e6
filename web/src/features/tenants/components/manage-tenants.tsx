import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Spinner from 'react-bootstrap/Spinner';
import {
  addTenantHeading,
  manageTenantsHeading,
  tenantRenameUnsupportedText,
} from '@cloudtrim/contracts/messages';
import type { Tenant } from '@cloudtrim/contracts/tenants';
import { PageHeading } from '../../../components/page-heading';
import { describeLoadError } from '../../../lib/load-failure';
import { useTenants } from '../api/get-tenants';
import { AddTenantForm } from './add-tenant-form';
import { DeleteTenantDialog } from './delete-tenant-dialog';
import { SetupGuide } from './setup-guide';
import { TenantList } from './tenant-list';
import { DataLoading } from '../../../components/data-loading';
import '../../../components/data-views.css';
import './manage-tenants.css';

type Notice = { variant: 'success' | 'warning'; text: string } | null;

function TenantListSection({
  onRename,
  onDelete,
}: {
  onRename: (tenant: Tenant) => void;
  onDelete: (tenant: Tenant) => void;
}) {
  const tenants = useTenants();
  if (tenants.isPending) {
    return <DataLoading label="Loading tenants" />;
  }
  if (tenants.isError) {
    return (
      <Alert variant="danger" role="alert">
        {describeLoadError(tenants.error)}
      </Alert>
    );
  }
  if (tenants.data.length === 0) {
    return (
      <div className="data-panel">
        <p className="data-empty">
          No tenants yet. Add one below and its resources appear in Cloud Resources.
        </p>
      </div>
    );
  }
  return <TenantList tenants={tenants.data} onRename={onRename} onDelete={onDelete} />;
}

export function ManageTenants() {
  const tenants = useTenants();
  const [tenantToDelete, setTenantToDelete] = useState<Tenant | null>(null);
  const [notice, setNotice] = useState<Notice>(null);

  function onDeleted(tenant: Tenant, message: string) {
    setTenantToDelete(null);
    setNotice({ variant: 'success', text: message || `Tenant "${tenant.FriendlyName}" has been deleted.` });
  }

  return (
    <>
      <PageHeading
        title={manageTenantsHeading}
        actions={
          <Button
            variant="outline-primary"
            size="sm"
            onClick={() => void tenants.refetch()}
            disabled={tenants.isFetching}
          >
            {tenants.isFetching ? (
              <Spinner as="span" animation="border" size="sm" className="me-2" aria-hidden="true" />
            ) : null}
            REFRESH
          </Button>
        }
      />
      {notice ? (
        <Alert variant={notice.variant} role="status" dismissible onClose={() => setNotice(null)}>
          {notice.text}
        </Alert>
      ) : null}
      <TenantListSection
        onRename={() => setNotice({ variant: 'warning', text: tenantRenameUnsupportedText })}
        onDelete={(tenant) => {
          setNotice(null);
          setTenantToDelete(tenant);
        }}
      />

      <Card className="mt-4 data-panel">
        <Card.Body>
          <h2 className="tenant-section-title">{addTenantHeading}</h2>
          <AddTenantForm />
          <SetupGuide />
        </Card.Body>
      </Card>

      <DeleteTenantDialog
        tenant={tenantToDelete}
        onCancel={() => setTenantToDelete(null)}
        onDeleted={onDeleted}
      />
    </>
  );
}

import { useId, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import Spinner from 'react-bootstrap/Spinner';
import type { Tenant } from '@cloudtrim/contracts/tenants';
import { useDeleteTenant } from '../api/delete-tenant';
import { getDeleteTenantErrorText } from '../utils/get-tenant-error-text';

interface DeleteTenantDialogProps {
  /** The tenant to confirm; null keeps the dialog closed. */
  tenant: Tenant | null;
  onCancel: () => void;
  onDeleted: (tenant: Tenant, message: string) => void;
}

export function DeleteTenantDialog({ tenant, onCancel, onDeleted }: DeleteTenantDialogProps) {
  const titleId = useId();
  const deletion = useDeleteTenant();
  // The dialog keeps naming the tenant while it fades out after the tenant was cleared.
  const [shownTenant, setShownTenant] = useState(tenant);
  if (tenant && tenant !== shownTenant) setShownTenant(tenant);
  const errorText = deletion.isError ? getDeleteTenantErrorText(deletion.error) : null;

  function onConfirm() {
    if (!tenant) return;
    deletion.mutate(tenant.Id, { onSuccess: (response) => onDeleted(tenant, response.message) });
  }

  return (
    <Modal
      show={tenant !== null}
      onHide={onCancel}
      onExited={() => deletion.reset()}
      aria-labelledby={titleId}
      centered
    >
      <Modal.Header closeButton>
        <Modal.Title as="h2" id={titleId} className="h5">
          Delete tenant
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <p className="mb-2">
          Delete <strong>{shownTenant?.FriendlyName}</strong> ({shownTenant?.TenantId}) from Cloudtrim?
        </p>
        <p className="mb-0 text-body-secondary small">
          Cloudtrim stops reading and automating its resources. Nothing is changed in Azure, and the service
          principal keeps its role assignments until you remove them.
        </p>
        {errorText ? (
          <Alert variant="danger" className="mt-3 mb-0" role="alert">
            {errorText}
          </Alert>
        ) : null}
      </Modal.Body>
      <Modal.Footer>
        <Button variant="outline-secondary" onClick={onCancel} disabled={deletion.isPending}>
          CANCEL
        </Button>
        <Button variant="danger" onClick={onConfirm} disabled={deletion.isPending}>
          {deletion.isPending ? (
            <Spinner as="span" animation="border" size="sm" className="me-2" aria-hidden="true" />
          ) : null}
          DELETE TENANT
        </Button>
      </Modal.Footer>
    </Modal>
  );
}

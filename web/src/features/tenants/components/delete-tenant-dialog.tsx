import type { Tenant } from '@cloudtrim/contracts/tenants';
import { ConfirmDeleteDialog } from '../../../components/confirm-delete-dialog';
import { useDeleteTenant } from '../api/delete-tenant';
import { getDeleteTenantErrorText } from '../utils/get-tenant-error-text';

interface DeleteTenantDialogProps {
  /** The tenant to confirm; null keeps the dialog closed. */
  tenant: Tenant | null;
  onCancel: () => void;
  onDeleted: (tenant: Tenant, message: string) => void;
}

export function DeleteTenantDialog({ tenant, onCancel, onDeleted }: DeleteTenantDialogProps) {
  const deletion = useDeleteTenant();
  return (
    <ConfirmDeleteDialog
      item={tenant}
      title="Delete tenant"
      confirmLabel="DELETE TENANT"
      describe={(shown) => (
        <>
          <p className="mb-2">
            Delete <strong>{shown.FriendlyName}</strong> ({shown.TenantId}) from Cloudtrim?
          </p>
          <p className="mb-0 text-body-secondary small">
            Cloudtrim stops reading and automating its resources. Nothing is changed in Azure, and the service
            principal keeps its role assignments until you remove them.
          </p>
        </>
      )}
      isPending={deletion.isPending}
      errorText={deletion.isError ? getDeleteTenantErrorText(deletion.error) : null}
      onCancel={onCancel}
      onConfirm={(confirmed) =>
        deletion.mutate(confirmed.Id, { onSuccess: (response) => onDeleted(confirmed, response.message) })
      }
      onExited={() => deletion.reset()}
    />
  );
}

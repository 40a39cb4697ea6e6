import type { Budget } from '@cloudtrim/contracts/budgets';
import { ConfirmDeleteDialog } from '../../../components/confirm-delete-dialog';
import { useDeleteBudget } from '../api/delete-budget';

interface DeleteBudgetDialogProps {
  /** The budget to confirm; null keeps the dialog closed. */
  budget: Budget | null;
  onCancel: () => void;
  onDeleted: () => void;
}

export function DeleteBudgetDialog({ budget, onCancel, onDeleted }: DeleteBudgetDialogProps) {
  const deletion = useDeleteBudget();
  return (
    <ConfirmDeleteDialog
      item={budget}
      title="Delete budget"
      confirmLabel="DELETE BUDGET"
      describe={(shown) => (
        <>
          <p className="mb-2">
            Delete the budget <strong>{shown.Name}</strong>?
          </p>
          <p className="mb-0 text-body-secondary small">
            Its thresholds stop alerting. The alerts it has already raised stay in the list.
          </p>
        </>
      )}
      isPending={deletion.isPending}
      errorText={deletion.isError ? deletion.error.message : null}
      onCancel={onCancel}
      onConfirm={(confirmed) => deletion.mutate(confirmed.Id, { onSuccess: onDeleted })}
      onExited={() => deletion.reset()}
    />
  );
}

import { useId, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import Spinner from 'react-bootstrap/Spinner';
import type { Budget } from '@cloudtrim/contracts/budgets';
import { useDeleteBudget } from '../api/delete-budget';

interface DeleteBudgetDialogProps {
  /** The budget to confirm; null keeps the dialog closed. */
  budget: Budget | null;
  onCancel: () => void;
  onDeleted: () => void;
}

export function DeleteBudgetDialog({ budget, onCancel, onDeleted }: DeleteBudgetDialogProps) {
  const titleId = useId();
  const deletion = useDeleteBudget();
  // The dialog keeps naming the budget while it fades out after the budget was cleared.
  const [shownBudget, setShownBudget] = useState(budget);
  if (budget && budget !== shownBudget) setShownBudget(budget);

  function onConfirm() {
    if (!budget) return;
    deletion.mutate(budget.Id, { onSuccess: onDeleted });
  }

  return (
    <Modal
      show={budget !== null}
      onHide={onCancel}
      onExited={() => deletion.reset()}
      aria-labelledby={titleId}
      centered
    >
      <Modal.Header closeButton>
        <Modal.Title as="h2" id={titleId} className="h5">
          Delete budget
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <p className="mb-2">
          Delete the budget <strong>{shownBudget?.Name}</strong>?
        </p>
        <p className="mb-0 text-body-secondary small">
          Its thresholds stop alerting. The alerts it has already raised stay in the list.
        </p>
        {deletion.isError ? (
          <Alert variant="danger" className="mt-3 mb-0" role="alert">
            {deletion.error.message}
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
          DELETE BUDGET
        </Button>
      </Modal.Footer>
    </Modal>
  );
}

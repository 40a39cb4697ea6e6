import { useId, useState, type ReactNode } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import Spinner from 'react-bootstrap/Spinner';

interface ConfirmDeleteDialogProps<Item> {
  /** The thing to confirm; null keeps the dialog closed. */
  item: Item | null;
  title: string;
  confirmLabel: string;
  /** What the body says of the thing and of what deleting it does. */
  describe: (item: Item) => ReactNode;
  isPending: boolean;
  errorText: string | null;
  onCancel: () => void;
  onConfirm: (item: Item) => void;
  /** Called once the dialog has faded out (e.g. to reset the deletion's state). */
  onExited: () => void;
}

// A deletion asked for and confirmed in a modal: CANCEL, or the red button with a spinner while the
// call runs, and the call's refusal shown in the dialog.
export function ConfirmDeleteDialog<Item>({
  item,
  title,
  confirmLabel,
  describe,
  isPending,
  errorText,
  onCancel,
  onConfirm,
  onExited,
}: ConfirmDeleteDialogProps<Item>) {
  const titleId = useId();
  // The dialog keeps naming the thing while it fades out after the thing was cleared.
  const [shownItem, setShownItem] = useState(item);
  if (item !== null && item !== shownItem) setShownItem(item);

  return (
    <Modal show={item !== null} onHide={onCancel} onExited={onExited} aria-labelledby={titleId} centered>
      <Modal.Header closeButton>
        <Modal.Title as="h2" id={titleId} className="h5">
          {title}
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        {shownItem === null ? null : describe(shownItem)}
        {errorText ? (
          <Alert variant="danger" className="mt-3 mb-0" role="alert">
            {errorText}
          </Alert>
        ) : null}
      </Modal.Body>
      <Modal.Footer>
        <Button variant="outline-secondary" onClick={onCancel} disabled={isPending}>
          CANCEL
        </Button>
        <Button variant="danger" onClick={() => item !== null && onConfirm(item)} disabled={isPending}>
          {isPending ? (
            <Spinner as="span" animation="border" size="sm" className="me-2" aria-hidden="true" />
          ) : null}
          {confirmLabel}
        </Button>
      </Modal.Footer>
    </Modal>
  );
}

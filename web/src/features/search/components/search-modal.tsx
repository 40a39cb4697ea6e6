import { useId } from 'react';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';

interface SearchModalProps {
  isShown: boolean;
  onHide: () => void;
}

/** The global resource search opened from the top bar. */
export function SearchModal({ isShown, onHide }: SearchModalProps) {
  const titleId = useId();
  return (
    <Modal show={isShown} onHide={onHide} aria-labelledby={titleId} size="lg">
      <Modal.Header closeButton>
        <Modal.Title as="h2" id={titleId}>
          Search
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <Form role="search" onSubmit={(event) => event.preventDefault()}>
          <Form.Group controlId="global-search">
            <Form.Label visuallyHidden>Search resources</Form.Label>
            <Form.Control type="search" placeholder="Search resources by name" autoComplete="off" autoFocus />
          </Form.Group>
        </Form>
      </Modal.Body>
    </Modal>
  );
}

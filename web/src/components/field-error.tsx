import Form from 'react-bootstrap/Form';

/** A form field's error from the server (400 naming the field) or the form's own checks; nothing when none. */
export function FieldError({ message }: { message: string | undefined }) {
  return message ? <Form.Control.Feedback type="invalid">{message}</Form.Control.Feedback> : null;
}

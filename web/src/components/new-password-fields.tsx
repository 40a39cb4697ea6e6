import type { UseFormRegisterReturn } from 'react-hook-form';
import Form from 'react-bootstrap/Form';
import { passwordMismatchText } from '@cloudtrim/contracts/password-rules';
import { isConfirmationMismatched } from '../lib/new-password';
import { PasswordChecklist } from './password-checklist';

interface NewPasswordFieldsProps {
  /** Prefixes the fields' ids, so two forms on one screen never share one. */
  idPrefix: string;
  passwordLabel: string;
  confirmationLabel: string;
  password: string;
  confirmation: string;
  passwordField: UseFormRegisterReturn;
  confirmationField: UseFormRegisterReturn;
}

/** A new password and its confirmation, with SPEC §5's live checklist and mismatch message. */
export function NewPasswordFields({
  idPrefix,
  passwordLabel,
  confirmationLabel,
  password,
  confirmation,
  passwordField,
  confirmationField,
}: NewPasswordFieldsProps) {
  const checklistId = `${idPrefix}-password-rules`;
  const isMismatched = isConfirmationMismatched(password, confirmation);

  return (
    <>
      <Form.Group className="mb-3" controlId={`${idPrefix}-password`}>
        <Form.Label>{passwordLabel}</Form.Label>
        <Form.Control
          type="password"
          autoComplete="new-password"
          required
          aria-describedby={checklistId}
          {...passwordField}
        />
        <PasswordChecklist id={checklistId} password={password} />
      </Form.Group>
      <Form.Group className="mb-3" controlId={`${idPrefix}-password-confirmation`}>
        <Form.Label>{confirmationLabel}</Form.Label>
        <Form.Control
          type="password"
          autoComplete="new-password"
          required
          isInvalid={isMismatched}
          {...confirmationField}
        />
        {isMismatched ? (
          <Form.Control.Feedback type="invalid">{passwordMismatchText}</Form.Control.Feedback>
        ) : null}
      </Form.Group>
    </>
  );
}

import type { HTMLAttributes, ReactNode } from 'react';
import Form from 'react-bootstrap/Form';
import { FieldError } from './field-error';

// One labelled field of a form: its label, the control, and the message shown under it (the form's
// own check or the server's 400 naming the field). The control is invalid exactly when a message is.

interface FieldProps {
  controlId: string;
  label: ReactNode;
  value: string;
  error: string | undefined;
  onChange: (value: string) => void;
}

export interface TextFieldProps extends FieldProps {
  type?: 'text' | 'number' | 'month' | 'email';
  inputMode?: HTMLAttributes<HTMLInputElement>['inputMode'];
  min?: number;
  max?: number;
  step?: string;
  maxLength?: number;
}

export function TextField({ controlId, label, value, error, onChange, ...input }: TextFieldProps) {
  return (
    <Form.Group controlId={controlId}>
      <Form.Label>{label}</Form.Label>
      <Form.Control
        {...input}
        value={value}
        isInvalid={Boolean(error)}
        onChange={(event) => onChange(event.target.value)}
      />
      <FieldError message={error} />
    </Form.Group>
  );
}

export interface SelectOption<Value extends string> {
  value: Value;
  label: string;
}

export interface SelectFieldProps<Value extends string> extends Omit<FieldProps, 'value' | 'onChange'> {
  value: Value;
  options: readonly SelectOption<Value>[];
  onChange: (value: Value) => void;
}

export function SelectField<Value extends string>({
  controlId,
  label,
  value,
  options,
  error,
  onChange,
}: SelectFieldProps<Value>) {
  return (
    <Form.Group controlId={controlId}>
      <Form.Label>{label}</Form.Label>
      <Form.Select
        value={value}
        isInvalid={Boolean(error)}
        onChange={(event) => onChange(event.target.value as Value)}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </Form.Select>
      <FieldError message={error} />
    </Form.Group>
  );
}

import { useDeferredValue, useId } from 'react';
import Form from 'react-bootstrap/Form';

export interface Suggestion {
  /** What the field takes when picked. */
  value: string;
  /** What a person reads beside it (a display name). */
  label: string;
}

interface SuggestFieldProps {
  value: string;
  onChange: (value: string) => void;
  /** Offered while typing; the browser narrows them further. Any other value may still be typed. */
  suggestions: readonly Suggestion[];
  isInvalid?: boolean;
  placeholder?: string;
}

/** A text field offering what the estate holds (a native datalist), a typed value still allowed. */
export function SuggestField({ value, onChange, suggestions, isInvalid, placeholder }: SuggestFieldProps) {
  const listId = useId();
  return (
    <>
      <Form.Control
        value={value}
        list={listId}
        autoComplete="off"
        isInvalid={isInvalid}
        placeholder={placeholder}
        onChange={(event) => onChange(event.target.value)}
      />
      <datalist id={listId}>
        {suggestions.map((suggestion) => (
          <option key={suggestion.value} value={suggestion.value} label={suggestion.label} />
        ))}
      </datalist>
    </>
  );
}

/** The text searched for, held back while the person is still typing. */
export function useSearchText(text: string): string {
  return useDeferredValue(text.trim());
}

import Form from 'react-bootstrap/Form';
import type { FormSelectProps } from 'react-bootstrap/FormSelect';
import type { LookupEntry } from '@cloudtrim/contracts/lookups/lookup-entry';

interface LookupSelectProps extends Omit<FormSelectProps, 'children'> {
  entries: readonly LookupEntry[];
  /** What an option sends: SPEC §3 sends company size, revenue and industry as their description. */
  valueKind: 'code' | 'description';
  /** A stored value the list no longer holds stays selectable rather than being silently dropped. */
  storedValue?: string;
  placeholder?: string;
}

export function LookupSelect({
  entries,
  valueKind,
  storedValue,
  placeholder = 'Select…',
  ...selectProps
}: LookupSelectProps) {
  const isStoredValueListed = !storedValue || entries.some((entry) => entry[valueKind] === storedValue);

  return (
    <Form.Select {...selectProps}>
      <option value="">{placeholder}</option>
      {isStoredValueListed ? null : <option value={storedValue}>{storedValue}</option>}
      {entries.map((entry) => (
        <option key={entry.code} value={entry[valueKind]}>
          {entry.description}
        </option>
      ))}
    </Form.Select>
  );
}

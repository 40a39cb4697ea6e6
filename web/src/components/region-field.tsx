import type { UseFormRegisterReturn } from 'react-hook-form';
import Form from 'react-bootstrap/Form';
import { getRegionsOfCountry } from '@cloudtrim/contracts/lookups/regions';
import { LookupSelect } from './lookup-select';

interface RegionFieldProps {
  /** The alpha-3 code of the chosen country. */
  countryCode: string;
  field: UseFormRegisterReturn;
  storedValue?: string;
}

/** State or province: a list of US states or Canadian provinces for those countries, free text elsewhere. */
export function RegionField({ countryCode, field, storedValue }: RegionFieldProps) {
  const regions = getRegionsOfCountry(countryCode);
  if (regions.length === 0) return <Form.Control type="text" autoComplete="address-level1" {...field} />;
  return <LookupSelect entries={regions} valueKind="code" storedValue={storedValue} {...field} />;
}

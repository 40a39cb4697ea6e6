import type { UseFormRegisterReturn } from 'react-hook-form';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';
import { countries } from '@cloudtrim/contracts/lookups/countries';
import { LookupSelect } from './lookup-select';
import { RegionField } from './region-field';

export interface AddressFieldRegistrations {
  address1: UseFormRegisterReturn;
  address2: UseFormRegisterReturn;
  city: UseFormRegisterReturn;
  // Changing the country empties the state: the caller's registration says so.
  country: UseFormRegisterReturn;
  state: UseFormRegisterReturn;
  zipcode: UseFormRegisterReturn;
}

interface AddressFieldsProps {
  // The fields' ids start with it: 'profile' gives profile-address1, profile-city, …
  idPrefix: string;
  fields: AddressFieldRegistrations;
  // The country chosen now, whose regions the state offers.
  country: string;
  // What the account holds already (the profile), kept selectable even when no longer listed.
  stored?: { country: string; state: string };
}

/** The postal address of SPEC §5's profile and account completion forms, all optional. */
export function AddressFields({ idPrefix, fields, country, stored }: AddressFieldsProps) {
  return (
    <>
      <Row className="g-3 mb-3">
        <Form.Group as={Col} sm={6} controlId={`${idPrefix}-address1`}>
          <Form.Label>Address 1</Form.Label>
          <Form.Control autoComplete="address-line1" {...fields.address1} />
        </Form.Group>
        <Form.Group as={Col} sm={6} controlId={`${idPrefix}-address2`}>
          <Form.Label>Address 2</Form.Label>
          <Form.Control autoComplete="address-line2" {...fields.address2} />
        </Form.Group>
      </Row>

      <Row className="g-3 mb-3">
        <Form.Group as={Col} sm={6} controlId={`${idPrefix}-city`}>
          <Form.Label>City</Form.Label>
          <Form.Control autoComplete="address-level2" {...fields.city} />
        </Form.Group>
        <Form.Group as={Col} sm={6} controlId={`${idPrefix}-country`}>
          <Form.Label>Country</Form.Label>
          <LookupSelect
            entries={countries}
            valueKind="code"
            storedValue={stored?.country}
            autoComplete="country"
            {...fields.country}
          />
        </Form.Group>
      </Row>

      <Row className="g-3 mb-3">
        <Form.Group as={Col} sm={6} controlId={`${idPrefix}-state`}>
          <Form.Label>State</Form.Label>
          <RegionField
            countryCode={country}
            storedValue={stored && country === stored.country ? stored.state : undefined}
            field={fields.state}
          />
        </Form.Group>
        <Form.Group as={Col} sm={6} controlId={`${idPrefix}-zipcode`}>
          <Form.Label>Zip Code</Form.Label>
          <Form.Control autoComplete="postal-code" {...fields.zipcode} />
        </Form.Group>
      </Row>
    </>
  );
}

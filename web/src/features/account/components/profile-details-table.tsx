import Table from 'react-bootstrap/Table';
import type { AccountDetails } from '@cloudtrim/contracts/account';
import { countries } from '@cloudtrim/contracts/lookups/countries';
import { findLookupDescription } from '@cloudtrim/contracts/lookups/lookup-entry';

interface ProfileDetailsTableProps {
  details: AccountDetails;
}

/** SPEC §2's read-only profile table, in SPEC's order and with SPEC's labels. */
export function ProfileDetailsTable({ details }: ProfileDetailsTableProps) {
  const rows: Array<[string, string]> = [
    ['First Name', details.FirstName],
    ['Last Name', details.LastName],
    ['E-mail', details.Email],
    ['Address 1', details.Address1],
    ['Address 2', details.Address2],
    ['City', details.City],
    ['State', details.State],
    ['Zip Code', details.Zipcode],
    // The country travels as its ISO code; people read its name.
    ['Country', findLookupDescription(countries, details.Country) ?? details.Country],
    ['CompanySize', details.CompanySize],
    ['Annual Revenue', details.AnnualRevenue],
    ['Industry', details.Industry],
  ];

  return (
    <Table responsive className="mb-0 align-middle" aria-label="Profile details">
      <tbody>
        {rows.map(([label, value]) => (
          <tr key={label}>
            <th scope="row" className="text-body-secondary fw-semibold" style={{ width: '40%' }}>
              {label}
            </th>
            <td>{value}</td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}

import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';
import Spinner from 'react-bootstrap/Spinner';
import { updateAccountDetailsSchema, type AccountDetails } from '@cloudtrim/contracts/account';
import { companySizes } from '@cloudtrim/contracts/lookups/company-sizes';
import { industries } from '@cloudtrim/contracts/lookups/industries';
import { revenues } from '@cloudtrim/contracts/lookups/revenues';
import { profileSaveErrorText } from '@cloudtrim/contracts/messages';
import { AddressFields } from '../../../components/address-fields';
import { LookupSelect } from '../../../components/lookup-select';
import { useUpdateAccountDetails } from '../api/update-account-details';
import { getRequiredNameError } from '../utils/get-required-name-error';

interface EditProfileFormProps {
  details: AccountDetails;
  onSaved: () => void;
  onCancel: () => void;
}

/** SPEC §5 'Profile edit': first and last name required, the rest optional. */
export function EditProfileForm({ details, onSaved, onCancel }: EditProfileFormProps) {
  const updateDetails = useUpdateAccountDetails({ onSuccess: onSaved });
  const {
    register,
    handleSubmit,
    control,
    setValue,
    formState: { errors },
  } = useForm({
    resolver: zodResolver(updateAccountDetailsSchema),
    defaultValues: {
      FirstName: details.FirstName,
      LastName: details.LastName,
      Address1: details.Address1,
      Address2: details.Address2,
      City: details.City,
      State: details.State,
      Zipcode: details.Zipcode,
      Country: details.Country,
      CompanySize: details.CompanySize,
      AnnualRevenue: details.AnnualRevenue,
      Industry: details.Industry,
    },
  });
  const country = useWatch({ control, name: 'Country' });

  const onSubmit = handleSubmit((values) => updateDetails.mutate(values));
  const firstNameError = getRequiredNameError('First name', errors.FirstName);
  const lastNameError = getRequiredNameError('Last name', errors.LastName);

  return (
    <Form noValidate onSubmit={onSubmit} aria-busy={updateDetails.isPending}>
      {updateDetails.isError ? (
        <Alert variant="danger" className="small" role="alert">
          {profileSaveErrorText}
        </Alert>
      ) : null}

      <Row className="g-3 mb-3">
        <Form.Group as={Col} sm={6} controlId="profile-first-name">
          <Form.Label>First Name</Form.Label>
          <Form.Control
            autoComplete="given-name"
            required
            isInvalid={Boolean(firstNameError)}
            {...register('FirstName')}
          />
          <Form.Control.Feedback type="invalid">{firstNameError}</Form.Control.Feedback>
        </Form.Group>
        <Form.Group as={Col} sm={6} controlId="profile-last-name">
          <Form.Label>Last Name</Form.Label>
          <Form.Control
            autoComplete="family-name"
            required
            isInvalid={Boolean(lastNameError)}
            {...register('LastName')}
          />
          <Form.Control.Feedback type="invalid">{lastNameError}</Form.Control.Feedback>
        </Form.Group>
      </Row>

      <AddressFields
        idPrefix="profile"
        country={country ?? ''}
        stored={{ country: details.Country, state: details.State }}
        fields={{
          address1: register('Address1'),
          address2: register('Address2'),
          city: register('City'),
          country: register('Country', { onChange: () => setValue('State', '') }),
          state: register('State'),
          zipcode: register('Zipcode'),
        }}
      />

      <Row className="g-3 mb-4">
        <Form.Group as={Col} md={4} controlId="profile-company-size">
          <Form.Label>Company Size</Form.Label>
          <LookupSelect
            entries={companySizes}
            valueKind="description"
            storedValue={details.CompanySize}
            {...register('CompanySize')}
          />
        </Form.Group>
        <Form.Group as={Col} md={4} controlId="profile-annual-revenue">
          <Form.Label>Annual Revenue</Form.Label>
          <LookupSelect
            entries={revenues}
            valueKind="description"
            storedValue={details.AnnualRevenue}
            {...register('AnnualRevenue')}
          />
        </Form.Group>
        <Form.Group as={Col} md={4} controlId="profile-industry">
          <Form.Label>Industry</Form.Label>
          <LookupSelect
            entries={industries}
            valueKind="description"
            storedValue={details.Industry}
            {...register('Industry')}
          />
        </Form.Group>
      </Row>

      <div className="d-flex gap-2">
        <Button type="submit" variant="primary" disabled={updateDetails.isPending}>
          {updateDetails.isPending ? (
            <Spinner as="span" animation="border" size="sm" className="me-2" aria-hidden="true" />
          ) : null}
          SAVE PROFILE
        </Button>
        <Button
          type="button"
          variant="outline-secondary"
          onClick={onCancel}
          disabled={updateDetails.isPending}
        >
          CANCEL
        </Button>
      </div>
    </Form>
  );
}

import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';
import Spinner from 'react-bootstrap/Spinner';
import { companySizes } from '@cloudtrim/contracts/lookups/company-sizes';
import { industries } from '@cloudtrim/contracts/lookups/industries';
import { revenues } from '@cloudtrim/contracts/lookups/revenues';
import { accountCompletionErrorText } from '@cloudtrim/contracts/messages';
import { completeSignupRequestSchema } from '@cloudtrim/contracts/signup';
import { AddressFields } from '../../../components/address-fields';
import { LookupSelect } from '../../../components/lookup-select';
import { NewPasswordFields } from '../../../components/new-password-fields';
import { canSubmitNewPassword } from '../../../lib/new-password';
import { useCompleteSignup } from '../api/complete-signup';

// The link's token and address come from the link, not from the form; the confirmation stays here.
const completeAccountFormSchema = completeSignupRequestSchema
  .omit({ guid: true, emailAddress: true })
  .extend({ confirmation: z.string() });

interface CompleteAccountFormProps {
  guid: string;
  email: string;
  /** Called once the account exists. */
  onCompleted: () => void;
}

/** The account completion form of /verify (SPEC §5): password and names required, the rest optional. */
export function CompleteAccountForm({ guid, email, onCompleted }: CompleteAccountFormProps) {
  const completeSignup = useCompleteSignup({ onSuccess: onCompleted });
  const {
    register,
    handleSubmit,
    control,
    setValue,
    formState: { errors },
  } = useForm({
    resolver: zodResolver(completeAccountFormSchema),
    defaultValues: {
      password: '',
      confirmation: '',
      firstName: '',
      lastName: '',
      company: '',
      address1: '',
      address2: '',
      city: '',
      state: '',
      zipcode: '',
      country: '',
      companySize: '',
      annualRevenue: '',
      industry: '',
    },
  });
  const [password, confirmation, country] = useWatch({
    control,
    name: ['password', 'confirmation', 'country'],
  });
  const canSubmit = canSubmitNewPassword(password, confirmation) && !completeSignup.isPending;

  const onSubmit = handleSubmit(({ confirmation: _confirmation, ...account }) => {
    completeSignup.mutate({ ...account, guid, emailAddress: email });
  });

  return (
    <Form noValidate onSubmit={onSubmit} aria-busy={completeSignup.isPending}>
      {completeSignup.isError ? (
        <Alert variant="danger" className="small" role="alert">
          {accountCompletionErrorText}
        </Alert>
      ) : null}

      <Form.Group className="mb-3" controlId="complete-email">
        <Form.Label>Email</Form.Label>
        <Form.Control type="email" value={email} readOnly plaintext autoComplete="username" />
      </Form.Group>

      <NewPasswordFields
        idPrefix="complete"
        passwordLabel="Password"
        confirmationLabel="Confirm Password"
        password={password}
        confirmation={confirmation}
        passwordField={register('password')}
        confirmationField={register('confirmation')}
      />

      <Row className="g-3 mb-3">
        <Form.Group as={Col} sm={6} controlId="complete-first-name">
          <Form.Label>First Name</Form.Label>
          <Form.Control
            autoComplete="given-name"
            required
            isInvalid={Boolean(errors.firstName)}
            {...register('firstName')}
          />
          <Form.Control.Feedback type="invalid">{errors.firstName?.message}</Form.Control.Feedback>
        </Form.Group>
        <Form.Group as={Col} sm={6} controlId="complete-last-name">
          <Form.Label>Last Name</Form.Label>
          <Form.Control
            autoComplete="family-name"
            required
            isInvalid={Boolean(errors.lastName)}
            {...register('lastName')}
          />
          <Form.Control.Feedback type="invalid">{errors.lastName?.message}</Form.Control.Feedback>
        </Form.Group>
      </Row>

      <Form.Group className="mb-3" controlId="complete-company">
        <Form.Label>Company</Form.Label>
        <Form.Control autoComplete="organization" {...register('company')} />
      </Form.Group>

      <AddressFields
        idPrefix="complete"
        country={country ?? ''}
        fields={{
          address1: register('address1'),
          address2: register('address2'),
          city: register('city'),
          country: register('country', { onChange: () => setValue('state', '') }),
          state: register('state'),
          zipcode: register('zipcode'),
        }}
      />

      <Row className="g-3 mb-4">
        <Form.Group as={Col} md={4} controlId="complete-company-size">
          <Form.Label>Company Size</Form.Label>
          <LookupSelect entries={companySizes} valueKind="description" {...register('companySize')} />
        </Form.Group>
        <Form.Group as={Col} md={4} controlId="complete-annual-revenue">
          <Form.Label>Annual Revenue</Form.Label>
          <LookupSelect entries={revenues} valueKind="description" {...register('annualRevenue')} />
        </Form.Group>
        <Form.Group as={Col} md={4} controlId="complete-industry">
          <Form.Label>Industry</Form.Label>
          <LookupSelect entries={industries} valueKind="description" {...register('industry')} />
        </Form.Group>
      </Row>

      <Button type="submit" variant="primary" className="w-100" disabled={!canSubmit}>
        {completeSignup.isPending ? (
          <Spinner as="span" animation="border" size="sm" className="me-2" aria-hidden="true" />
        ) : null}
        CREATE ACCOUNT
      </Button>
    </Form>
  );
}

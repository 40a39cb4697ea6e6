import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import InputGroup from 'react-bootstrap/InputGroup';
import Row from 'react-bootstrap/Row';
import Spinner from 'react-bootstrap/Spinner';
import { tenantAddedText } from '@cloudtrim/contracts/messages';
import { addTenantRequestSchema, tenantTypes, type AddTenantRequest } from '@cloudtrim/contracts/tenants';
import { useAddTenant } from '../api/add-tenant';
import { getAddTenantErrorText } from '../utils/get-tenant-error-text';
import { useIsReadOnly } from '../../../lib/my-role';

const emptyForm: AddTenantRequest = {
  Type: 'Azure',
  FriendlyName: '',
  TenantId: '',
  ApplicationId: '',
  ServicePrincipalSecret: '',
};

type Outcome = { kind: 'success' | 'error'; text: string } | null;

export function AddTenantForm() {
  const [isSecretShown, setIsSecretShown] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const addTenant = useAddTenant();
  // A Viewer reads only: the server would refuse a new tenant.
  const isReadOnly = useIsReadOnly();
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors },
  } = useForm({ resolver: zodResolver(addTenantRequestSchema), defaultValues: emptyForm });

  const onSubmit = handleSubmit((request) => {
    setOutcome(null);
    addTenant.mutate(request, {
      onSuccess: (response) => {
        // SPEC §8: the server's message when it sends one, else ours naming the alias.
        setOutcome({ kind: 'success', text: response.message || tenantAddedText(request.FriendlyName) });
        reset(emptyForm);
      },
      onError: (error) => {
        const text = getAddTenantErrorText(error);
        setOutcome(text ? { kind: 'error', text } : null);
      },
    });
  });

  return (
    <Form noValidate onSubmit={onSubmit} aria-busy={addTenant.isPending}>
      {outcome ? (
        <Alert
          variant={outcome.kind === 'success' ? 'success' : 'danger'}
          role={outcome.kind === 'success' ? 'status' : 'alert'}
          dismissible
          onClose={() => setOutcome(null)}
        >
          {outcome.text}
        </Alert>
      ) : null}

      <Row className="g-3">
        <Col md={6}>
          <Form.Group controlId="tenant-friendly-name">
            <Form.Label>Name/Alias</Form.Label>
            <Form.Control
              autoComplete="off"
              isInvalid={Boolean(errors.FriendlyName)}
              {...register('FriendlyName')}
            />
            <Form.Control.Feedback type="invalid">{errors.FriendlyName?.message}</Form.Control.Feedback>
          </Form.Group>
        </Col>
        <Col md={6}>
          <Form.Group controlId="tenant-type">
            <Form.Label>Type</Form.Label>
            <Form.Select {...register('Type')}>
              {tenantTypes.map((type) => (
                <option key={type} value={type}>
                  {type}
                </option>
              ))}
            </Form.Select>
          </Form.Group>
        </Col>
        <Col md={6}>
          <Form.Group controlId="tenant-tenant-id">
            <Form.Label>Tenant ID</Form.Label>
            <Form.Control
              autoComplete="off"
              spellCheck={false}
              placeholder="00000000-0000-0000-0000-000000000000"
              className="font-monospace"
              isInvalid={Boolean(errors.TenantId)}
              {...register('TenantId')}
            />
            <Form.Control.Feedback type="invalid">{errors.TenantId?.message}</Form.Control.Feedback>
          </Form.Group>
        </Col>
        <Col md={6}>
          <Form.Group controlId="tenant-application-id">
            <Form.Label>Application ID</Form.Label>
            <Form.Control
              autoComplete="off"
              spellCheck={false}
              placeholder="00000000-0000-0000-0000-000000000000"
              className="font-monospace"
              isInvalid={Boolean(errors.ApplicationId)}
              {...register('ApplicationId')}
            />
            <Form.Control.Feedback type="invalid">{errors.ApplicationId?.message}</Form.Control.Feedback>
          </Form.Group>
        </Col>
        <Col md={12}>
          <Form.Group controlId="tenant-secret">
            <Form.Label>Secret</Form.Label>
            <InputGroup hasValidation>
              <Form.Control
                type={isSecretShown ? 'text' : 'password'}
                autoComplete="new-password"
                spellCheck={false}
                className="font-monospace"
                isInvalid={Boolean(errors.ServicePrincipalSecret)}
                {...register('ServicePrincipalSecret')}
              />
              <Button
                variant="outline-secondary"
                className="password-toggle"
                aria-controls="tenant-secret"
                onClick={() => setIsSecretShown((isShown) => !isShown)}
              >
                {isSecretShown ? 'Hide' : 'Show'}
              </Button>
              <Form.Control.Feedback type="invalid">
                {errors.ServicePrincipalSecret?.message}
              </Form.Control.Feedback>
            </InputGroup>
          </Form.Group>
        </Col>
      </Row>

      <Button type="submit" className="mt-4" disabled={addTenant.isPending || isReadOnly}>
        {addTenant.isPending ? (
          <Spinner as="span" animation="border" size="sm" className="me-2" aria-hidden="true" />
        ) : null}
        ADD TENANT
      </Button>
    </Form>
  );
}

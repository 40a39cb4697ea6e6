import { useId } from 'react';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';
import { FieldError } from '../../../components/field-error';
import { findFieldError } from '../utils/pipeline-draft';
import { TagFilterFields } from './tag-filter-fields';
import { ScopeListField } from './scope-list-field';
import type { BuilderFormProps } from './pipeline-builder-form';

export function ScopeFields({ draft, errors, tenants, onChange }: BuilderFormProps) {
  const id = useId();
  const tenantsError = findFieldError(errors, 'scope.tenantIds');
  return (
    <fieldset className="pipeline-fieldset">
      <legend className="h6">Scope (empty: all of the team’s resources)</legend>
      {tenants.length > 0 ? (
        <div role="group" aria-label="Tenants" className="mb-2">
          <p className="form-label mb-1">Tenants</p>
          {tenants.map((tenant) => (
            <Form.Check
              inline
              key={tenant.id}
              type="checkbox"
              id={`${id}-tenant-${tenant.id}`}
              label={tenant.name}
              checked={draft.tenantIds.includes(tenant.id)}
              onChange={(event) =>
                onChange({
                  tenantIds: event.target.checked
                    ? [...draft.tenantIds, tenant.id]
                    : draft.tenantIds.filter((tenantId) => tenantId !== tenant.id),
                })
              }
            />
          ))}
          {tenantsError ? <div className="invalid-feedback d-block">{tenantsError}</div> : null}
        </div>
      ) : null}
      <Row className="g-2">
        <Col md={6}>
          <Form.Group controlId={`${id}-subscriptions`}>
            <Form.Label>Subscription ids (comma-separated)</Form.Label>
            <ScopeListField
              kind="subscriptions"
              value={draft.subscriptionIds}
              tenantId={draft.tenantIds.length === 1 ? draft.tenantIds[0] : undefined}
              isInvalid={Boolean(findFieldError(errors, 'scope.subscriptionIds'))}
              onChange={(subscriptionIds) => onChange({ subscriptionIds })}
            />
            <FieldError message={findFieldError(errors, 'scope.subscriptionIds')} />
          </Form.Group>
        </Col>
        <Col md={6}>
          <Form.Group controlId={`${id}-resource-groups`}>
            <Form.Label>Resource groups (comma-separated)</Form.Label>
            <ScopeListField
              kind="resourceGroups"
              value={draft.resourceGroups}
              tenantId={draft.tenantIds.length === 1 ? draft.tenantIds[0] : undefined}
              isInvalid={Boolean(findFieldError(errors, 'scope.resourceGroups'))}
              onChange={(resourceGroups) => onChange({ resourceGroups })}
            />
            <FieldError message={findFieldError(errors, 'scope.resourceGroups')} />
          </Form.Group>
        </Col>
      </Row>
      <TagFilterFields
        label="Scope tag"
        path="scope.tags"
        filters={draft.scopeTags}
        errors={errors}
        onChange={(scopeTags) => onChange({ scopeTags })}
      />
    </fieldset>
  );
}

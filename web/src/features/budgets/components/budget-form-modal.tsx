import { useId, useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import Row from 'react-bootstrap/Row';
import Spinner from 'react-bootstrap/Spinner';
import { budgetBases, budgetPeriods, maxBudgetThresholds, type Budget } from '@cloudtrim/contracts/budgets';
import { costTypes } from '@cloudtrim/contracts/costs';
import { FieldError } from '../../../components/field-error';
import { SelectField, TextField } from '../../../components/form-fields';
import { useSaveBudget } from '../api/save-budget';
import {
  buildBudgetRequest,
  checkBudgetRequest,
  createBudgetDraft,
  createThresholdDraft,
  formErrorKey,
  readBudgetDraft,
  readSaveErrors,
  type BudgetDraft,
  type BudgetFieldErrors,
  type ThresholdDraft,
} from '../utils/budget-draft';
import { budgetPeriodLabels } from '../utils/budget-text';
import { ResourceGroupField, SubscriptionField, TagField } from './budget-scope-fields';

export interface BudgetTenantOption {
  id: string;
  name: string;
}

export interface BudgetMemberOption {
  email: string;
  /** First and last name; empty for a colleague still invited. */
  name: string;
}

interface BudgetFormModalProps {
  isShown: boolean;
  /** The budget edited, or null for a new one. */
  budget: Budget | null;
  tenants: readonly BudgetTenantOption[];
  members: readonly BudgetMemberOption[];
  onHide: () => void;
  onSaved: (budget: Budget) => void;
}

const basisLabels = { actual: 'Actual cost', forecasted: 'Forecasted cost' } as const;
const costTypeLabels = { actual: 'Actual', amortized: 'Amortized' } as const;
const basisOptions = budgetBases.map((basis) => ({ value: basis, label: basisLabels[basis] }));
const periodOptions = budgetPeriods.map((period) => ({ value: period, label: budgetPeriodLabels[period] }));
const costTypeOptions = costTypes.map((costType) => ({ value: costType, label: costTypeLabels[costType] }));

interface ThresholdFieldsProps {
  index: number;
  threshold: ThresholdDraft;
  members: readonly BudgetMemberOption[];
  errors: BudgetFieldErrors;
  onChange: (threshold: ThresholdDraft) => void;
  onRemove: () => void;
}

function ThresholdFields({ index, threshold, members, errors, onChange, onRemove }: ThresholdFieldsProps) {
  const id = useId();
  const at = (field: string) => `Thresholds.${index}.${field}`;
  const recipientsError = errors[at('Recipients.Emails')] ?? errors[at('Recipients')];
  return (
    <fieldset className="budget-threshold">
      <legend>Threshold {index + 1}</legend>
      <Row className="g-2 align-items-start">
        <Col sm={4}>
          <TextField
            controlId={`${id}-percent`}
            label="Percent of the budget"
            type="number"
            inputMode="decimal"
            min={1}
            max={1000}
            value={threshold.percent}
            error={errors[at('Percent')]}
            onChange={(percent) => onChange({ ...threshold, percent })}
          />
        </Col>
        <Col sm={5}>
          <SelectField
            controlId={`${id}-basis`}
            label="On"
            value={threshold.basis}
            options={basisOptions}
            error={errors[at('Basis')]}
            onChange={(basis) => onChange({ ...threshold, basis })}
          />
        </Col>
        <Col sm={3} className="d-flex align-items-end justify-content-sm-end">
          <Button variant="link" className="px-0 mt-sm-4" onClick={onRemove}>
            Remove threshold {index + 1}
          </Button>
        </Col>
      </Row>
      <fieldset className="mt-2">
        <legend className="form-label fs-6 fw-normal">Mail</legend>
        <Form.Check
          type="radio"
          id={`${id}-all`}
          name={`${id}-recipients`}
          label="All of the team"
          checked={threshold.isAllTeam}
          onChange={() => onChange({ ...threshold, isAllTeam: true })}
        />
        <Form.Check
          type="radio"
          id={`${id}-chosen`}
          name={`${id}-recipients`}
          label="Chosen members"
          checked={!threshold.isAllTeam}
          onChange={() => onChange({ ...threshold, isAllTeam: false })}
        />
        {threshold.isAllTeam ? null : (
          <div
            className="budget-recipient-list"
            role="group"
            aria-label={`Members mailed at threshold ${index + 1}`}
          >
            {members.map((member) => (
              <Form.Check
                key={member.email}
                type="checkbox"
                id={`${id}-${member.email}`}
                label={member.name ? `${member.name} (${member.email})` : member.email}
                checked={threshold.emails.includes(member.email)}
                onChange={(event) =>
                  onChange({
                    ...threshold,
                    emails: event.target.checked
                      ? [...threshold.emails, member.email]
                      : threshold.emails.filter((email) => email !== member.email),
                  })
                }
              />
            ))}
          </div>
        )}
        {recipientsError ? (
          <div className="invalid-feedback d-block" role="alert">
            {recipientsError}
          </div>
        ) : null}
      </fieldset>
    </fieldset>
  );
}

/** Create or change a budget: the contract's checks on submit, then the server's 400 by its field. */
export function BudgetFormModal({
  isShown,
  budget,
  tenants,
  members,
  onHide,
  onSaved,
}: BudgetFormModalProps) {
  const titleId = useId();
  const id = useId();
  const saving = useSaveBudget();
  const [draft, setDraft] = useState<BudgetDraft>(() =>
    budget ? readBudgetDraft(budget) : createBudgetDraft(),
  );
  const [errors, setErrors] = useState<BudgetFieldErrors>({});

  function onEnter() {
    setDraft(budget ? readBudgetDraft(budget) : createBudgetDraft());
    setErrors({});
    saving.reset();
  }

  function change(next: Partial<BudgetDraft>) {
    setDraft((current) => ({ ...current, ...next }));
  }

  function changeThreshold(index: number, threshold: ThresholdDraft) {
    setDraft((current) => ({
      ...current,
      thresholds: current.thresholds.map((existing, at) => (at === index ? threshold : existing)),
    }));
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const request = buildBudgetRequest(draft);
    const issues = checkBudgetRequest(request);
    setErrors(issues);
    if (Object.keys(issues).length > 0) return;
    saving.mutate(
      { id: budget?.Id ?? null, request },
      { onSuccess: onSaved, onError: (error) => setErrors(readSaveErrors(error)) },
    );
  }

  const formError = errors[formErrorKey] ?? errors.Thresholds ?? errors.Scope;
  const title = budget ? `Edit budget ${budget.Name}` : 'Add budget';
  return (
    <Modal show={isShown} onHide={onHide} onEnter={onEnter} aria-labelledby={titleId} size="lg" centered>
      <Form noValidate onSubmit={onSubmit}>
        <Modal.Header closeButton>
          <Modal.Title as="h2" id={titleId} className="h5">
            {title}
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <Row className="g-3">
            <Col md={6}>
              <TextField
                controlId={`${id}-name`}
                label="Name"
                maxLength={100}
                value={draft.name}
                error={errors.Name}
                onChange={(name) => change({ name })}
              />
            </Col>
            <Col md={6}>
              <TextField
                controlId={`${id}-amount`}
                label="Amount"
                type="number"
                inputMode="decimal"
                min={0}
                step="any"
                value={draft.amount}
                error={errors.Amount}
                onChange={(amount) => change({ amount })}
              />
            </Col>
            <Col md={4}>
              <SelectField
                controlId={`${id}-period`}
                label="Period"
                value={draft.period}
                options={periodOptions}
                error={errors.Period}
                onChange={(period) => change({ period })}
              />
            </Col>
            <Col md={4}>
              <TextField
                controlId={`${id}-start`}
                label="Starts in"
                type="month"
                value={draft.startMonth}
                error={errors.StartDate}
                onChange={(startMonth) => change({ startMonth })}
              />
            </Col>
            <Col md={4}>
              <SelectField
                controlId={`${id}-cost-type`}
                label="Cost type"
                value={draft.costType}
                options={costTypeOptions}
                error={errors.CostType}
                onChange={(costType) => change({ costType })}
              />
            </Col>
          </Row>
          <fieldset className="mt-3">
            <legend className="h6">Scope (empty: all of the team’s tenants)</legend>
            <Row className="g-3">
              <Col md={6}>
                <SelectField
                  controlId={`${id}-tenant`}
                  label="Tenant"
                  value={draft.tenantId}
                  options={[
                    { value: '', label: 'All tenants' },
                    ...tenants.map((tenant) => ({ value: tenant.id, label: tenant.name })),
                  ]}
                  error={errors['Scope.TenantId']}
                  onChange={(tenantId) => change({ tenantId })}
                />
              </Col>
              <Col md={6}>
                <Form.Group controlId={`${id}-subscription`}>
                  <Form.Label>Subscription</Form.Label>
                  <SubscriptionField
                    value={draft.subscriptionId}
                    isInvalid={Boolean(errors['Scope.SubscriptionId'])}
                    onChange={(subscriptionId) => change({ subscriptionId })}
                    tenantId={draft.tenantId}
                    subscriptionId={draft.subscriptionId}
                  />
                  <FieldError message={errors['Scope.SubscriptionId']} />
                </Form.Group>
              </Col>
              <Col md={6}>
                <Form.Group controlId={`${id}-resource-group`}>
                  <Form.Label>Resource group</Form.Label>
                  <ResourceGroupField
                    value={draft.resourceGroup}
                    isInvalid={Boolean(errors['Scope.ResourceGroup'])}
                    onChange={(resourceGroup) => change({ resourceGroup })}
                    tenantId={draft.tenantId}
                    subscriptionId={draft.subscriptionId}
                  />
                  <FieldError message={errors['Scope.ResourceGroup']} />
                </Form.Group>
              </Col>
              <Col md={6}>
                <Form.Group controlId={`${id}-tag`}>
                  <Form.Label>Tag (NAME=VALUE)</Form.Label>
                  <TagField
                    value={draft.tag}
                    isInvalid={Boolean(errors['Scope.Tag'])}
                    onChange={(tag) => change({ tag })}
                    tenantId={draft.tenantId}
                    subscriptionId={draft.subscriptionId}
                  />
                  <FieldError message={errors['Scope.Tag']} />
                </Form.Group>
              </Col>
            </Row>
          </fieldset>
          <fieldset className="mt-3">
            <legend className="h6">Thresholds (up to {maxBudgetThresholds})</legend>
            {draft.thresholds.map((threshold, index) => (
              <ThresholdFields
                key={index}
                index={index}
                threshold={threshold}
                members={members}
                errors={errors}
                onChange={(next) => changeThreshold(index, next)}
                onRemove={() => change({ thresholds: draft.thresholds.filter((_, at) => at !== index) })}
              />
            ))}
            {draft.thresholds.length < maxBudgetThresholds ? (
              <Button
                variant="outline-primary"
                size="sm"
                onClick={() => change({ thresholds: [...draft.thresholds, createThresholdDraft('')] })}
              >
                ADD THRESHOLD
              </Button>
            ) : null}
          </fieldset>
          {formError ? (
            <Alert variant="danger" className="mt-3 mb-0" role="alert">
              {formError}
            </Alert>
          ) : null}
        </Modal.Body>
        <Modal.Footer>
          <Button variant="outline-secondary" onClick={onHide} disabled={saving.isPending}>
            CANCEL
          </Button>
          <Button type="submit" variant="primary" disabled={saving.isPending}>
            {saving.isPending ? (
              <Spinner as="span" animation="border" size="sm" className="me-2" aria-hidden="true" />
            ) : null}
            SAVE BUDGET
          </Button>
        </Modal.Footer>
      </Form>
    </Modal>
  );
}

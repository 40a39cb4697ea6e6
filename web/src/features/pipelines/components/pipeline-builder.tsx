import { useId, useMemo, useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import Row from 'react-bootstrap/Row';
import Spinner from 'react-bootstrap/Spinner';
import {
  maxPipelineBlastRadius,
  maxPipelineGraceMinutes,
  maxPipelineInARow,
  pipelineActionLabels,
  pipelineActionTypes,
  pipelineApprovalModes,
  pipelineFindingKinds,
  pipelineOptOutTag,
  pipelineRecommendationKinds,
  type Pipeline,
  type PipelineActionType,
  type PipelineApprovalMode,
  type PipelineFindingKind,
  type PipelineRecommendationKind,
} from '@cloudtrim/contracts/pipelines';
import { DataLoading } from '../../../components/data-loading';
import { FieldError } from '../../../components/field-error';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { describeLoadError } from '../../../lib/load-failure';
import { usePipeline } from '../api/get-pipeline';
import { usePipelineTemplates } from '../api/get-pipeline-templates';
import { useSavePipeline } from '../api/save-pipeline';
import {
  buildPipelineDefinition,
  checkPipelineDefinition,
  createPipelineDraft,
  findFieldError,
  formErrorKey,
  readPipelineDraft,
  readSaveErrors,
  type PipelineDraft,
  type PipelineFieldErrors,
} from '../utils/pipeline-draft';
import { findingKindLabels, recommendationKindLabels } from '../utils/pipeline-text';
import { PipelinePreview } from './pipeline-preview';
import { TagFilterFields } from './tag-filter-fields';
import { useIsReadOnly } from '../../../lib/my-role';
import { ScopeListField } from './scope-list-field';

export interface PipelineTenantOption {
  id: string;
  name: string;
}

interface PipelineBuilderProps {
  isShown: boolean;
  /** The pipeline edited, or null for a new one. */
  pipelineId: string | null;
  tenants: readonly PipelineTenantOption[];
  onHide: () => void;
  onSaved: (pipeline: Pipeline) => void;
}

/** The preview follows the form once typing pauses this long. */
const previewDelayMs = 500;

const approvalLabels: Record<PipelineApprovalMode, string> = {
  destructive: 'Destructive actions only (delete; stop of a production VM)',
  always: 'Every action',
};

// The IANA zones the browser knows, offered as the time zone is typed.
const timeZones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];

interface BuilderFormProps {
  draft: PipelineDraft;
  errors: PipelineFieldErrors;
  tenants: readonly PipelineTenantOption[];
  onChange: (next: Partial<PipelineDraft>) => void;
}

function ScopeFields({ draft, errors, tenants, onChange }: BuilderFormProps) {
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

function ConditionFields({ draft, errors, onChange }: Omit<BuilderFormProps, 'tenants'>) {
  const id = useId();
  const at = (field: string) => errors[`condition.finding.${field}`];
  return (
    <fieldset className="pipeline-fieldset">
      <legend className="h6">Condition</legend>
      <Row className="g-2">
        <Col md={6}>
          <Form.Group controlId={`${id}-finding`}>
            <Form.Label>Finding</Form.Label>
            <Form.Select
              value={draft.findingKind}
              isInvalid={Boolean(at('kind'))}
              onChange={(event) => onChange({ findingKind: event.target.value as PipelineFindingKind | '' })}
            >
              <option value="">None (tag filters alone)</option>
              {pipelineFindingKinds.map((kind) => (
                <option key={kind} value={kind}>
                  {findingKindLabels[kind]}
                </option>
              ))}
            </Form.Select>
            <FieldError message={at('kind')} />
          </Form.Group>
        </Col>
        {draft.findingKind === 'recommendation' ? (
          <>
            <Col md={3}>
              <Form.Group controlId={`${id}-recommendation-kind`}>
                <Form.Label>Recommendation</Form.Label>
                <Form.Select
                  value={draft.recommendationKind}
                  isInvalid={Boolean(at('recommendationKind'))}
                  onChange={(event) =>
                    onChange({ recommendationKind: event.target.value as PipelineRecommendationKind | '' })
                  }
                >
                  <option value="">Any kind</option>
                  {pipelineRecommendationKinds.map((kind) => (
                    <option key={kind} value={kind}>
                      {recommendationKindLabels[kind]}
                    </option>
                  ))}
                </Form.Select>
                <FieldError message={at('recommendationKind')} />
              </Form.Group>
            </Col>
            <Col md={3}>
              <Form.Group controlId={`${id}-confidence`}>
                <Form.Label>Minimum confidence (%)</Form.Label>
                <Form.Control
                  type="number"
                  inputMode="decimal"
                  min={0}
                  max={100}
                  value={draft.minConfidencePercent}
                  isInvalid={Boolean(at('minConfidence'))}
                  onChange={(event) => onChange({ minConfidencePercent: event.target.value })}
                />
                <FieldError message={at('minConfidence')} />
              </Form.Group>
            </Col>
          </>
        ) : null}
        {draft.findingKind === 'unattachedDays' ? (
          <Col md={6}>
            <Form.Group controlId={`${id}-days`}>
              <Form.Label>Unattached for at least (days)</Form.Label>
              <Form.Control
                type="number"
                inputMode="numeric"
                min={1}
                max={365}
                value={draft.days}
                isInvalid={Boolean(at('days'))}
                onChange={(event) => onChange({ days: event.target.value })}
              />
              <FieldError message={at('days')} />
            </Form.Group>
          </Col>
        ) : null}
        {draft.findingKind === 'costOver' ? (
          <Col md={6}>
            <Form.Group controlId={`${id}-monthly-cost`}>
              <Form.Label>Costs more than ($ a month)</Form.Label>
              <Form.Control
                type="number"
                inputMode="decimal"
                min={0}
                step="any"
                value={draft.monthlyCost}
                isInvalid={Boolean(at('monthlyCost'))}
                onChange={(event) => onChange({ monthlyCost: event.target.value })}
              />
              <FieldError message={at('monthlyCost')} />
            </Form.Group>
          </Col>
        ) : null}
      </Row>
      <TagFilterFields
        label="Condition tag"
        path="condition.tags"
        filters={draft.conditionTags}
        errors={errors}
        onChange={(conditionTags) => onChange({ conditionTags })}
      />
    </fieldset>
  );
}

function ActionFields({ draft, errors, onChange }: Omit<BuilderFormProps, 'tenants'>) {
  const id = useId();
  return (
    <fieldset className="pipeline-fieldset">
      <legend className="h6">Action</legend>
      <Row className="g-2">
        <Col md={4}>
          <Form.Group controlId={`${id}-action`}>
            <Form.Label>Action</Form.Label>
            <Form.Select
              value={draft.actionType}
              isInvalid={Boolean(errors['action.type'])}
              onChange={(event) => onChange({ actionType: event.target.value as PipelineActionType })}
            >
              {pipelineActionTypes.map((type) => (
                <option key={type} value={type}>
                  {pipelineActionLabels[type]}
                </option>
              ))}
            </Form.Select>
            <FieldError message={errors['action.type']} />
          </Form.Group>
        </Col>
        {draft.actionType === 'tag' ? (
          <>
            <Col md={4}>
              <Form.Group controlId={`${id}-tag-key`}>
                <Form.Label>Tag key to set</Form.Label>
                <Form.Control
                  value={draft.actionTagKey}
                  isInvalid={Boolean(findFieldError(errors, 'action.tag.key') ?? errors['action.tag'])}
                  onChange={(event) => onChange({ actionTagKey: event.target.value })}
                />
                <FieldError message={findFieldError(errors, 'action.tag.key') ?? errors['action.tag']} />
              </Form.Group>
            </Col>
            <Col md={4}>
              <Form.Group controlId={`${id}-tag-value`}>
                <Form.Label>Tag value to set</Form.Label>
                <Form.Control
                  value={draft.actionTagValue}
                  isInvalid={Boolean(errors['action.tag.value'])}
                  onChange={(event) => onChange({ actionTagValue: event.target.value })}
                />
                <FieldError message={errors['action.tag.value']} />
              </Form.Group>
            </Col>
          </>
        ) : null}
      </Row>
    </fieldset>
  );
}

function ScheduleFields({ draft, errors, onChange }: Omit<BuilderFormProps, 'tenants'>) {
  const id = useId();
  return (
    <fieldset className="pipeline-fieldset">
      <legend className="h6">Schedule</legend>
      <Form.Check
        type="radio"
        id={`${id}-cron`}
        name={`${id}-schedule`}
        label="At the times of a cron expression, in a time zone"
        checked={!draft.isMaintenanceWindow}
        onChange={() => onChange({ isMaintenanceWindow: false })}
      />
      <Form.Check
        type="radio"
        id={`${id}-window`}
        name={`${id}-schedule`}
        label="In each resource’s maintenance window"
        checked={draft.isMaintenanceWindow}
        onChange={() => onChange({ isMaintenanceWindow: true })}
      />
      {draft.isMaintenanceWindow ? null : (
        <Row className="g-2 mt-1">
          <Col md={6}>
            <Form.Group controlId={`${id}-cron-expression`}>
              <Form.Label>Cron (minute hour day month weekday)</Form.Label>
              <Form.Control
                value={draft.cron}
                className="font-monospace"
                isInvalid={Boolean(errors['schedule.cron'])}
                onChange={(event) => onChange({ cron: event.target.value })}
              />
              <FieldError message={errors['schedule.cron']} />
            </Form.Group>
          </Col>
          <Col md={6}>
            <Form.Group controlId={`${id}-time-zone`}>
              <Form.Label>Time zone</Form.Label>
              <Form.Control
                value={draft.timeZone}
                list={`${id}-time-zones`}
                isInvalid={Boolean(errors['schedule.timeZone'])}
                onChange={(event) => onChange({ timeZone: event.target.value })}
              />
              <datalist id={`${id}-time-zones`}>
                {timeZones.map((timeZone) => (
                  <option key={timeZone} value={timeZone} />
                ))}
              </datalist>
              <FieldError message={errors['schedule.timeZone']} />
            </Form.Group>
          </Col>
        </Row>
      )}
      {errors.schedule ? <div className="invalid-feedback d-block">{errors.schedule}</div> : null}
    </fieldset>
  );
}

function GateFields({ draft, errors, onChange }: Omit<BuilderFormProps, 'tenants'>) {
  const id = useId();
  return (
    <fieldset className="pipeline-fieldset">
      <legend className="h6">Gates</legend>
      <Form.Check
        type="switch"
        id={`${id}-dry-run`}
        label="Dry run: scheduled runs only record what they match"
        checked={draft.isDryRun}
        onChange={(event) => onChange({ isDryRun: event.target.checked })}
      />
      <Row className="g-2 mt-1">
        <Col sm={6} lg={3}>
          <Form.Group controlId={`${id}-in-a-row`}>
            <Form.Label>Matches in a row</Form.Label>
            <Form.Control
              type="number"
              inputMode="numeric"
              min={1}
              max={maxPipelineInARow}
              value={draft.inARow}
              isInvalid={Boolean(errors['gates.inARow'])}
              onChange={(event) => onChange({ inARow: event.target.value })}
            />
            <FieldError message={errors['gates.inARow']} />
          </Form.Group>
        </Col>
        <Col sm={6} lg={3}>
          <Form.Group controlId={`${id}-blast-radius`}>
            <Form.Label>Blast radius (per run)</Form.Label>
            <Form.Control
              type="number"
              inputMode="numeric"
              min={1}
              max={maxPipelineBlastRadius}
              value={draft.blastRadius}
              isInvalid={Boolean(errors['gates.blastRadius'])}
              onChange={(event) => onChange({ blastRadius: event.target.value })}
            />
            <FieldError message={errors['gates.blastRadius']} />
          </Form.Group>
        </Col>
        <Col sm={6} lg={3}>
          <Form.Group controlId={`${id}-approval`}>
            <Form.Label>Approval</Form.Label>
            <Form.Select
              value={draft.approval}
              isInvalid={Boolean(errors['gates.approval'])}
              onChange={(event) => onChange({ approval: event.target.value as PipelineApprovalMode })}
            >
              {pipelineApprovalModes.map((mode) => (
                <option key={mode} value={mode}>
                  {approvalLabels[mode]}
                </option>
              ))}
            </Form.Select>
            <FieldError message={errors['gates.approval']} />
          </Form.Group>
        </Col>
        <Col sm={6} lg={3}>
          <Form.Group controlId={`${id}-grace`}>
            <Form.Label>Grace (minutes)</Form.Label>
            <Form.Control
              type="number"
              inputMode="numeric"
              min={0}
              max={maxPipelineGraceMinutes}
              value={draft.graceMinutes}
              isInvalid={Boolean(errors['gates.graceMinutes'])}
              onChange={(event) => onChange({ graceMinutes: event.target.value })}
            />
            <FieldError message={errors['gates.graceMinutes']} />
          </Form.Group>
        </Col>
      </Row>
      <p className="form-text mb-0">
        A resource tagged <code>{pipelineOptOutTag}</code> is never acted on.
      </p>
    </fieldset>
  );
}

/** `Start from`: a new pipeline begins blank or as one of the templates. */
function TemplatePicker({ onPick }: { onPick: (draft: PipelineDraft) => void }) {
  const id = useId();
  const templates = usePipelineTemplates();
  const [templateId, setTemplateId] = useState('');
  const chosen = templates.data?.templates.find((template) => template.id === templateId);
  return (
    <Form.Group controlId={`${id}-template`} className="mb-3">
      <Form.Label>Start from</Form.Label>
      <Form.Select
        value={templateId}
        disabled={!templates.data}
        onChange={(event) => {
          const template = templates.data?.templates.find((candidate) => candidate.id === event.target.value);
          setTemplateId(event.target.value);
          onPick(template ? readPipelineDraft(template.definition) : createPipelineDraft());
        }}
      >
        <option value="">A blank pipeline</option>
        {(templates.data?.templates ?? []).map((template) => (
          <option key={template.id} value={template.id}>
            {template.title}
          </option>
        ))}
      </Form.Select>
      {chosen ? <Form.Text>{chosen.description}</Form.Text> : null}
      {templates.isError ? (
        <div className="invalid-feedback d-block">{describeLoadError(templates.error)}</div>
      ) : null}
    </Form.Group>
  );
}

/**
 * Create or change a pipeline, from a template or blank, beside its live dry run. The contract's checks
 * show on save; the server's 400 by the field it names.
 */
export function PipelineBuilder({ isShown, pipelineId, tenants, onHide, onSaved }: PipelineBuilderProps) {
  // A Viewer reads only: the definition shows, but does not save.
  const isReadOnly = useIsReadOnly();
  const titleId = useId();
  const id = useId();
  const saving = useSavePipeline();
  const editing = usePipeline(isShown ? pipelineId : null);
  const [draft, setDraft] = useState<PipelineDraft>(createPipelineDraft);
  const [errors, setErrors] = useState<PipelineFieldErrors>({});
  // The version the draft was read from, so a pipeline read again (a refetch) does not undo the typing.
  const [draftSource, setDraftSource] = useState<string | null>(null);
  if (pipelineId !== null && editing.data && draftSource !== `${editing.data.id}:${editing.data.version}`) {
    setDraftSource(`${editing.data.id}:${editing.data.version}`);
    setDraft(readPipelineDraft(editing.data.definition));
  }

  const previewDraft = useDebouncedValue(draft, previewDelayMs);
  const preview = useMemo(() => {
    const definition = buildPipelineDefinition(previewDraft);
    const issues = checkPipelineDefinition(definition);
    const firstIssue = Object.values(issues)[0];
    return { definition: firstIssue === undefined ? definition : null, incompleteText: firstIssue };
  }, [previewDraft]);

  function onEnter() {
    setDraft(createPipelineDraft());
    setDraftSource(null);
    setErrors({});
    saving.reset();
  }

  function change(next: Partial<PipelineDraft>) {
    setDraft((current) => ({ ...current, ...next }));
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const definition = buildPipelineDefinition(draft);
    const issues = checkPipelineDefinition(definition);
    setErrors(issues);
    if (Object.keys(issues).length > 0) return;
    saving.mutate(
      { id: pipelineId, definition },
      { onSuccess: onSaved, onError: (error) => setErrors(readSaveErrors(error)) },
    );
  }

  const isLoading = pipelineId !== null && !editing.data;
  const title = pipelineId === null ? 'New pipeline' : `Edit pipeline ${editing.data?.name ?? ''}`.trim();
  const formError = errors[formErrorKey] ?? errors.scope ?? errors.condition ?? errors.action ?? errors.gates;

  function renderForm() {
    if (editing.isError) {
      return (
        <p className="data-error" role="alert">
          {describeLoadError(editing.error)}
        </p>
      );
    }
    if (isLoading) return <DataLoading label="Loading the pipeline" />;
    return (
      <Row className="g-4">
        <Col lg={7}>
          {pipelineId === null ? <TemplatePicker onPick={(picked) => setDraft(picked)} /> : null}
          <Form.Group controlId={`${id}-name`} className="mb-3">
            <Form.Label>Name</Form.Label>
            <Form.Control
              value={draft.name}
              maxLength={100}
              isInvalid={Boolean(errors.name)}
              onChange={(event) => change({ name: event.target.value })}
            />
            <FieldError message={errors.name} />
          </Form.Group>
          <ScopeFields draft={draft} errors={errors} tenants={tenants} onChange={change} />
          <ConditionFields draft={draft} errors={errors} onChange={change} />
          <ActionFields draft={draft} errors={errors} onChange={change} />
          <ScheduleFields draft={draft} errors={errors} onChange={change} />
          <GateFields draft={draft} errors={errors} onChange={change} />
          {formError ? (
            <Alert variant="danger" className="mt-3 mb-0" role="alert">
              {formError}
            </Alert>
          ) : null}
        </Col>
        <Col lg={5}>
          <PipelinePreview definition={preview.definition} incompleteText={preview.incompleteText} />
        </Col>
      </Row>
    );
  }

  return (
    <Modal show={isShown} onHide={onHide} onEnter={onEnter} aria-labelledby={titleId} size="xl" centered>
      <Form noValidate onSubmit={onSubmit}>
        <Modal.Header closeButton>
          <Modal.Title as="h2" id={titleId} className="h5">
            {title}
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>{renderForm()}</Modal.Body>
        <Modal.Footer>
          <Button variant="outline-secondary" onClick={onHide} disabled={saving.isPending}>
            CANCEL
          </Button>
          <Button type="submit" variant="primary" disabled={saving.isPending || isLoading || isReadOnly}>
            {saving.isPending ? (
              <Spinner as="span" animation="border" size="sm" className="me-2" aria-hidden="true" />
            ) : null}
            SAVE PIPELINE
          </Button>
        </Modal.Footer>
      </Form>
    </Modal>
  );
}

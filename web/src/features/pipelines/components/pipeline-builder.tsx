import { useId, useMemo, useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import Row from 'react-bootstrap/Row';
import Spinner from 'react-bootstrap/Spinner';
import type { Pipeline } from '@cloudtrim/contracts/pipelines';
import { DataLoading } from '../../../components/data-loading';
import { FieldError } from '../../../components/field-error';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { describeLoadError } from '../../../lib/load-failure';
import { usePipeline } from '../api/get-pipeline';
import { useSavePipeline } from '../api/save-pipeline';
import {
  buildPipelineDefinition,
  checkPipelineDefinition,
  createPipelineDraft,
  formErrorKey,
  readPipelineDraft,
  readSaveErrors,
  type PipelineDraft,
  type PipelineFieldErrors,
} from '../utils/pipeline-draft';
import { PipelinePreview } from './pipeline-preview';
import { useIsReadOnly } from '../../../lib/my-role';
import { ActionFields } from './pipeline-action-fields';
import type { PipelineTenantOption } from './pipeline-builder-form';
import { ConditionFields } from './pipeline-condition-fields';
import { GateFields } from './pipeline-gate-fields';
import { ScheduleFields } from './pipeline-schedule-fields';
import { ScopeFields } from './pipeline-scope-fields';
import { TemplatePicker } from './pipeline-template-picker';

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

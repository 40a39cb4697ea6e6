import { useId } from 'react';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';
import {
  maxPipelineBlastRadius,
  maxPipelineGraceMinutes,
  maxPipelineInARow,
  pipelineApprovalModes,
  pipelineOptOutTag,
  type PipelineApprovalMode,
} from '@cloudtrim/contracts/pipelines';
import { FieldError } from '../../../components/field-error';
import type { BuilderFormProps } from './pipeline-builder-form';

const approvalLabels: Record<PipelineApprovalMode, string> = {
  destructive: 'Destructive actions only (delete; stop of a production VM)',
  always: 'Every action',
};

export function GateFields({ draft, errors, onChange }: Omit<BuilderFormProps, 'tenants'>) {
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

import { useId } from 'react';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';
import {
  pipelineActionLabels,
  pipelineActionTypes,
  type PipelineActionType,
} from '@cloudtrim/contracts/pipelines';
import { FieldError } from '../../../components/field-error';
import { findFieldError } from '../utils/pipeline-draft';
import type { BuilderFormProps } from './pipeline-builder-form';

export function ActionFields({ draft, errors, onChange }: Omit<BuilderFormProps, 'tenants'>) {
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

import { useId } from 'react';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';
import {
  pipelineFindingKinds,
  pipelineRecommendationKinds,
  type PipelineFindingKind,
  type PipelineRecommendationKind,
} from '@cloudtrim/contracts/pipelines';
import { FieldError } from '../../../components/field-error';
import { findingKindLabels, recommendationKindLabels } from '../utils/pipeline-text';
import { TagFilterFields } from './tag-filter-fields';
import type { BuilderFormProps } from './pipeline-builder-form';

export function ConditionFields({ draft, errors, onChange }: Omit<BuilderFormProps, 'tenants'>) {
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

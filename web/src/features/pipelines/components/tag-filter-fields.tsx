import { useId } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { pipelineTagOperators, type PipelineTagOperator } from '@cloudtrim/contracts/pipelines';
import { createTagFilterDraft, type PipelineFieldErrors, type TagFilterDraft } from '../utils/pipeline-draft';
import { tagOperatorLabels } from '../utils/pipeline-text';

interface TagFilterFieldsProps {
  /** `Scope tag`, `Condition tag`: names each filter's fields. */
  label: string;
  filters: readonly TagFilterDraft[];
  /** The definition's path to the filters, for their messages: `scope.tags`. */
  path: string;
  errors: PipelineFieldErrors;
  onChange: (filters: TagFilterDraft[]) => void;
}

/** Tag filters (key = value, key ≠ value, key exists, key absent), added and removed one by one. */
export function TagFilterFields({ label, filters, path, errors, onChange }: TagFilterFieldsProps) {
  const id = useId();

  function change(index: number, next: Partial<TagFilterDraft>) {
    onChange(filters.map((filter, at) => (at === index ? { ...filter, ...next } : filter)));
  }

  return (
    <div className="pipeline-tag-filters">
      {filters.map((filter, index) => {
        const number = index + 1;
        const keyError = errors[`${path}.${index}.key`];
        const valueError = errors[`${path}.${index}.value`];
        const hasValue = filter.op === 'equals' || filter.op === 'notEquals';
        return (
          <div className="pipeline-tag-filter" key={index}>
            <Form.Group controlId={`${id}-${index}-key`}>
              <Form.Label>
                {label} {number} key
              </Form.Label>
              <Form.Control
                size="sm"
                value={filter.key}
                isInvalid={Boolean(keyError)}
                onChange={(event) => change(index, { key: event.target.value })}
              />
              {keyError ? <Form.Control.Feedback type="invalid">{keyError}</Form.Control.Feedback> : null}
            </Form.Group>
            <Form.Group controlId={`${id}-${index}-op`}>
              <Form.Label>
                {label} {number} test
              </Form.Label>
              <Form.Select
                size="sm"
                value={filter.op}
                onChange={(event) => change(index, { op: event.target.value as PipelineTagOperator })}
              >
                {pipelineTagOperators.map((operator) => (
                  <option key={operator} value={operator}>
                    {tagOperatorLabels[operator]}
                  </option>
                ))}
              </Form.Select>
            </Form.Group>
            {hasValue ? (
              <Form.Group controlId={`${id}-${index}-value`}>
                <Form.Label>
                  {label} {number} value
                </Form.Label>
                <Form.Control
                  size="sm"
                  value={filter.value}
                  isInvalid={Boolean(valueError)}
                  onChange={(event) => change(index, { value: event.target.value })}
                />
                {valueError ? (
                  <Form.Control.Feedback type="invalid">{valueError}</Form.Control.Feedback>
                ) : null}
              </Form.Group>
            ) : (
              <span />
            )}
            <Button
              variant="link"
              size="sm"
              className="px-0 align-self-end"
              onClick={() => onChange(filters.filter((_, at) => at !== index))}
            >
              Remove {label.toLowerCase()} {number}
            </Button>
          </div>
        );
      })}
      <Button
        variant="outline-primary"
        size="sm"
        onClick={() => onChange([...filters, createTagFilterDraft()])}
      >
        ADD {label.toUpperCase()}
      </Button>
    </div>
  );
}

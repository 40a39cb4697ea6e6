import { useId, useState } from 'react';
import Form from 'react-bootstrap/Form';
import { describeLoadError } from '../../../lib/load-failure';
import { usePipelineTemplates } from '../api/get-pipeline-templates';
import { createPipelineDraft, readPipelineDraft, type PipelineDraft } from '../utils/pipeline-draft';

/** `Start from`: a new pipeline begins blank or as one of the templates. */
export function TemplatePicker({ onPick }: { onPick: (draft: PipelineDraft) => void }) {
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

// What the builder's parts share: the tenants offered, and the props of one part of the form.
import type { PipelineDraft, PipelineFieldErrors } from '../utils/pipeline-draft';

export interface PipelineTenantOption {
  id: string;
  name: string;
}

export interface BuilderFormProps {
  draft: PipelineDraft;
  errors: PipelineFieldErrors;
  tenants: readonly PipelineTenantOption[];
  onChange: (next: Partial<PipelineDraft>) => void;
}

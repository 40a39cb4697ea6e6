import { useMutation } from '@tanstack/react-query';
import { pipelineYamlContentType } from '@cloudtrim/contracts/pipelines';
import { requestBlob } from '../../../lib/api-client';
import { saveFile } from '../../../lib/save-file';

/** `Stop dev VMs` → `stop-dev-vms.yaml`. */
export function createPipelineFileName(name: string): string {
  const slug = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return `${slug || 'pipeline'}.yaml`;
}

// GET /api/v1/pipeline/{id}/export: the current definition as YAML, saved from memory since the call
// needs the bearer token a plain link cannot carry.
export function exportPipeline(id: string): Promise<Blob> {
  return requestBlob(`/api/v1/pipeline/${encodeURIComponent(id)}/export`, {
    accept: pipelineYamlContentType,
  });
}

export function useExportPipeline() {
  return useMutation({
    mutationFn: async ({ id, name }: { id: string; name: string }) => {
      saveFile(await exportPipeline(id), createPipelineFileName(name));
    },
  });
}

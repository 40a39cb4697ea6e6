import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  pipelineImportErrorSchema,
  pipelineImportRequestSchema,
  pipelineSchema,
  type Pipeline,
} from '@cloudtrim/contracts/pipelines';
import { ApiError, requestJson } from '../../../lib/api-client';
import { pipelineQueryKeys } from './get-pipelines';

// POST /api/v1/pipeline/import: a YAML file's text; a bad file answers 400 with its line and field and
// saves nothing.
export async function importPipeline(yaml: string): Promise<Pipeline> {
  // An empty or oversized file is refused here, in the contract's words, before it is sent.
  const request = pipelineImportRequestSchema.safeParse({ yaml });
  if (!request.success) throw new Error(request.error.issues[0]?.message);
  return requestJson('/api/v1/pipeline/import', pipelineSchema, { method: 'POST', body: request.data });
}

/** `Line 4, schedule.timeZone: Time zone must be …` for a refused file; the message alone otherwise. */
export function describeImportError(error: Error): string {
  if (!(error instanceof ApiError) || error.status !== 400) return error.message;
  const parsed = pipelineImportErrorSchema.safeParse(error.body);
  if (!parsed.success) return error.message;
  const { line, field, message } = parsed.data;
  const place = [line === undefined ? null : `Line ${line}`, field ?? null].filter(Boolean).join(', ');
  // The server may already name the place in its message; it is written once.
  const prefix = [place, field]
    .filter((part): part is string => Boolean(part))
    .map((part) => `${part}: `)
    .find((candidate) => message.startsWith(candidate));
  const detail = prefix ? message.slice(prefix.length) : message;
  return place ? `${place}: ${detail}` : detail;
}

export function useImportPipeline() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: importPipeline,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: pipelineQueryKeys.all }),
  });
}

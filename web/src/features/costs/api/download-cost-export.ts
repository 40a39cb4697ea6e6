import { useMutation } from '@tanstack/react-query';
import type { CostExportQuery } from '@cloudtrim/contracts/costs';
import { requestBlob } from '../../../lib/api-client';
import { saveFile } from '../../../lib/save-file';
import { buildCostSearch } from './get-cost';

export function createExportFileName({ from, to }: Pick<CostExportQuery, 'from' | 'to'>): string {
  return `cloudtrim-focus-${from}-${to}.csv`;
}

// GET /api/v1/cost/export?from=&to=: the bill as FOCUS 1.0 CSV. It needs the bearer token like every
// call, so a plain link cannot fetch it: the file comes through the client and is saved from memory.
export function downloadCostExport({ from, to, tenantId }: CostExportQuery): Promise<Blob> {
  return requestBlob(`/api/v1/cost/export?${buildCostSearch({ from, to, tenantId })}`, {
    accept: 'text/csv',
  });
}

export function useDownloadCostExport() {
  return useMutation({
    mutationFn: async (query: CostExportQuery) => {
      saveFile(await downloadCostExport(query), createExportFileName(query));
    },
  });
}

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { securityScanResponseSchema, type SecurityScanResponse } from '@cloudtrim/contracts/security';
import { requestBlob, requestJson } from '../../../lib/api-client';
import { securityQueryKeys } from './get-security-summary';

// POST /api/v1/security/scan: every tenant now (429 within a minute of the last).
export function scanSecurity(): Promise<SecurityScanResponse> {
  return requestJson('/api/v1/security/scan', securityScanResponseSchema, { method: 'POST' });
}

export function useScanSecurity() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: scanSecurity,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: securityQueryKeys.all }),
  });
}

// GET /api/v1/security/export?format=csv|ocsf, as a file.
export function exportSecurityFindings(format: 'csv' | 'ocsf'): Promise<Blob> {
  return requestBlob(`/api/v1/security/export?format=${format}`, {
    accept: format === 'csv' ? 'text/csv' : 'application/json',
  });
}

import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  saveCloudResourceRequestSchema,
  saveCloudResourceResponseSchema,
  type SaveCloudResourceItem,
  type SaveCloudResourceResponse,
} from '@cloudtrim/contracts/resources';
import { requestJson } from '../../../lib/api-client';
import { cloudResourceQueryKeys, type ListedCloudResources } from './get-cloud-resources';

/** SPEC §7 sends an array holding the one resource's settings. */
export function saveCloudResource(item: SaveCloudResourceItem): Promise<SaveCloudResourceResponse> {
  return requestJson('/api/v1/resource', saveCloudResourceResponseSchema, {
    method: 'POST',
    body: saveCloudResourceRequestSchema.parse([item]),
  });
}

export function useSaveCloudResource() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveCloudResource,
    onSuccess: (_response, item) => {
      // The saved row is all that changed: it is written into the list rather than the whole
      // list read again (the list is read afresh on every visit anyway).
      queryClient.setQueryData<ListedCloudResources>(cloudResourceQueryKeys.list(), (resources) =>
        resources?.map((resource) =>
          resource.ResourceId === item.ResourceId ? { ...resource, ...item } : resource,
        ),
      );
    },
  });
}

import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  saveCloudResourceRequestSchema,
  saveCloudResourceResponseSchema,
  type CloudResourcesResponse,
  type SaveCloudResourceItem,
  type SaveCloudResourceResponse,
} from '@cloudtrim/contracts/resources';
import { requestJson } from '../../../lib/api-client';
import { cloudResourceQueryKeys } from './get-cloud-resources';

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
    onSuccess: async (_response, item) => {
      // Show the saved values at once rather than the old ones until the list is read again.
      queryClient.setQueryData<CloudResourcesResponse>(cloudResourceQueryKeys.list(), (resources) =>
        resources?.map((resource) =>
          resource.ResourceId === item.ResourceId ? { ...resource, ...item } : resource,
        ),
      );
      await queryClient.invalidateQueries({ queryKey: cloudResourceQueryKeys.all });
    },
  });
}

import { queryOptions, useQuery } from '@tanstack/react-query';
import { signupLinkResponseSchema, type SignupLinkResponse } from '@cloudtrim/contracts/signup';
import { requestJson } from '../../../lib/api-client';

export const signupLinkQueryKeys = {
  link: (guid: string) => ['signup-link', guid] as const,
};

// GET api/v1/emailaddress?guid=: the address a confirmation or invitation link belongs to. An expired
// confirmation link answers 409 and mails a new one.
export function getSignupLink(
  guid: string,
  { signal }: { signal?: AbortSignal } = {},
): Promise<SignupLinkResponse> {
  const query = new URLSearchParams({ guid });
  return requestJson(`/api/v1/emailaddress?${query.toString()}`, signupLinkResponseSchema, {
    isAuthenticated: false,
    signal,
  });
}

export function getSignupLinkQueryOptions(guid: string) {
  return queryOptions({
    queryKey: signupLinkQueryKeys.link(guid),
    queryFn: ({ signal }) => getSignupLink(guid, { signal }),
    // Asking again could mail the visitor a second new link: the first answer holds for the visit.
    retry: false,
    staleTime: Infinity,
  });
}

export function useSignupLink(guid: string) {
  return useQuery({ ...getSignupLinkQueryOptions(guid), enabled: guid.length > 0 });
}

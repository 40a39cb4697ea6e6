import { AuthenticationRequiredError } from '@azure/identity';
import { describe, expect, it } from 'vitest';
import { toCloudError } from './azure-errors';

const restError = (statusCode: number, message = 'Azure says no') =>
  Object.assign(new Error(message), { name: 'RestError', statusCode, code: 'SomeCode' });

describe('toCloudError', () => {
  it('classifies Resource Manager answers by status', () => {
    expect(toCloudError(restError(401), 'Listing').kind).toBe('authentication');
    expect(toCloudError(restError(403), 'Listing').kind).toBe('authorization');
    expect(toCloudError(restError(404), 'Listing').kind).toBe('notFound');
    expect(toCloudError(restError(429), 'Listing').kind).toBe('throttled');
    expect(toCloudError(restError(400), 'Listing').kind).toBe('invalidRequest');
    expect(toCloudError(restError(503), 'Listing').kind).toBe('unavailable');
    expect(toCloudError(restError(403), 'Listing').message).toBe('Listing: HTTP 403 SomeCode: Azure says no');
  });

  it("keeps only Entra ID's codes from a refused sign-in", () => {
    const refused = new AuthenticationRequiredError({
      scopes: ['https://management.azure.com/.default'],
      message:
        "invalid_client: Error(s): 7000215 - Description: AADSTS7000215: Invalid client secret provided for app 'x'.",
    });
    const error = toCloudError(refused, 'Listing subscriptions');
    expect(error.kind).toBe('authentication');
    expect(error.message).toBe(
      'Listing subscriptions: the service principal could not sign in (invalid_client, AADSTS7000215).',
    );
  });

  it('reports an aborted call as a timeout', () => {
    const aborted = Object.assign(new Error('The operation was aborted.'), { name: 'AbortError' });
    expect(toCloudError(aborted, 'Reading metrics').kind).toBe('timeout');
  });
});

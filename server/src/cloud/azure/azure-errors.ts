// Turns whatever the Azure SDK throws into a CloudError whose message is safe to store, show and
// log: Azure's own error code and text, never a request body (which would carry the secret).
import {
  AuthenticationError,
  AuthenticationRequiredError,
  CredentialUnavailableError,
} from '@azure/identity';
import { CloudError } from '../cloud-provider';

// What Azure Resource Manager answered when it refused: its error code and text from the JSON body
// (`{ error: { code, message } }`), or the status alone. toCloudError then sorts it by status.
export function readArmError(
  statusCode: number,
  body: string | undefined,
): Error & { statusCode: number; code?: string } {
  let code: string | undefined;
  let message = `HTTP ${statusCode}`;
  try {
    const parsed = JSON.parse(body ?? '{}') as { error?: { code?: string; message?: string } };
    code = parsed.error?.code;
    message = parsed.error?.message ?? message;
  } catch {
    // Not JSON: the status says enough.
  }
  return Object.assign(new Error(message), { statusCode, code });
}

interface RestLikeError {
  name?: string;
  statusCode?: number;
  code?: string;
  message?: string;
}

export function toCloudError(error: unknown, operation: string): CloudError {
  if (error instanceof CloudError) return error;
  if (error instanceof AuthenticationError) {
    const code = error.errorResponse?.error ?? 'invalid_client';
    return new CloudError(
      'authentication',
      `${operation}: the service principal could not sign in (${code}).`,
      error.statusCode,
    );
  }
  // Entra ID's refusals (bad secret, unknown application or tenant) reach us through MSAL as these.
  if (error instanceof AuthenticationRequiredError || error instanceof CredentialUnavailableError) {
    return new CloudError(
      'authentication',
      `${operation}: the service principal could not sign in (${readEntraCodes(error.message)}).`,
    );
  }
  const rest = (error ?? {}) as RestLikeError;
  if (rest.name === 'AbortError' || rest.name === 'TimeoutError') {
    return new CloudError('timeout', `${operation}: Azure did not answer in time.`);
  }
  const statusCode = rest.statusCode;
  const detail = describe(rest);
  if (statusCode === 401) return new CloudError('authentication', `${operation}: ${detail}`, statusCode);
  if (statusCode === 403) return new CloudError('authorization', `${operation}: ${detail}`, statusCode);
  if (statusCode === 404) return new CloudError('notFound', `${operation}: ${detail}`, statusCode);
  if (statusCode === 429) return new CloudError('throttled', `${operation}: ${detail}`, statusCode);
  if (statusCode !== undefined && statusCode >= 400 && statusCode < 500) {
    return new CloudError('invalidRequest', `${operation}: ${detail}`, statusCode, rest.code);
  }
  return new CloudError('unavailable', `${operation}: ${detail}`, statusCode, rest.code);
}

function describe(error: RestLikeError): string {
  const parts = [error.statusCode ? `HTTP ${error.statusCode}` : undefined, error.code].filter(Boolean);
  // SDK messages are Azure's error text or a network error; cut them short for storage.
  const message = (error.message ?? 'request failed').replace(/\s+/g, ' ').slice(0, 300);
  return parts.length > 0 ? `${parts.join(' ')}: ${message}` : message;
}

// 'invalid_client: Error(s): 7000215 - … AADSTS7000215: …' → 'invalid_client, AADSTS7000215'. The rest
// of Entra ID's text is left out: it is long and names the application.
function readEntraCodes(message: string): string {
  const errorCode = /^([a-z_]+):/.exec(message)?.[1];
  const stsCode = /AADSTS\d+/.exec(message)?.[0];
  return [errorCode, stsCode].filter(Boolean).join(', ') || 'refused';
}

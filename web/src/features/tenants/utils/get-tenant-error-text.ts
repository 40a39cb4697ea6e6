import {
  tenantDeleteErrorText,
  tenantDeleteForbiddenText,
  tenantDeleteServerErrorText,
  tenantExistsText,
  tenantNotAuthenticatedText,
  tenantSaveErrorText,
} from '@cloudtrim/contracts/messages';
import { ApiError } from '../../../lib/api-client';

function readStatus(error: unknown): number | null {
  return error instanceof ApiError ? error.status : null;
}

/** SPEC §8, tenant add. null: a 401 ends the session instead of showing a message. */
export function getAddTenantErrorText(error: unknown): string | null {
  switch (readStatus(error)) {
    case 401:
      return null;
    case 400:
      return tenantNotAuthenticatedText;
    case 409:
      return tenantExistsText;
    default:
      return tenantSaveErrorText;
  }
}

/** SPEC §8, tenant delete: another team's tenant answers 404, shown as an authorization message. */
export function getDeleteTenantErrorText(error: unknown): string | null {
  switch (readStatus(error)) {
    case 401:
      return null;
    case 404:
      return tenantDeleteForbiddenText;
    case 500:
      return tenantDeleteServerErrorText;
    default:
      return tenantDeleteErrorText;
  }
}

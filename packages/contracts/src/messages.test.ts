import { describe, expect, it } from 'vitest';
import * as messages from './messages';

describe('messages', () => {
  it('puts the tenant alias and the invited email in SPEC sentences', () => {
    expect(messages.tenantAddedText('Prod')).toBe(
      'Tenant "Prod" has been successfully added and configured.',
    );
    expect(messages.inviteConflictText('bob@example.com')).toBe(
      'bob@example.com either already has an account of the product or has already been invited.',
    );
  });

  it('keeps straight quotes and three-dot ellipses', () => {
    const texts = [
      ...Object.values(messages).filter((value) => typeof value === 'string'),
      messages.tenantAddedText('x'),
      messages.inviteConflictText('x'),
      messages.noSearchResultsText('x'),
      messages.resetOtherErrorText(418, 'x', 'x'),
    ];
    for (const text of texts) expect(text).not.toMatch(/[‘’“”…]/);
    expect(messages.recoverNoAccountText.endsWith('...')).toBe(true);
  });

  it('tells a network failure from other load failures', () => {
    expect(messages.isNetworkFailureMessage('TypeError: Failed to fetch')).toBe(true);
    expect(messages.isNetworkFailureMessage('net::ERR_NAME_NOT_RESOLVED')).toBe(true);
    expect(messages.isNetworkFailureMessage('Internal Server Error')).toBe(false);
  });

  it('summarises the page as SPEC writes it', () => {
    expect(messages.pagingSummaryText(31, 60, 95, 2, 4)).toBe('Showing 31 to 60 of 95 entries • Page 2 of 4');
    expect(messages.loadErrorText(undefined)).toBe('Error: Unknown error occurred');
  });
});

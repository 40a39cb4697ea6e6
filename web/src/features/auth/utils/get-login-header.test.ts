import { describe, expect, it } from 'vitest';
import {
  defaultLoginText,
  passwordUpdatedLoginText,
  sessionExpiredLoginText,
  signupCompleteLoginText,
} from '@cloudtrim/contracts/messages';
import { getLoginHeader } from './get-login-header';

function readHeaderText(query: string): string {
  return getLoginHeader(new URLSearchParams(query)).text;
}

describe('getLoginHeader', () => {
  it('greets a plain visit with the default instruction', () => {
    expect(readHeaderText('')).toBe(defaultLoginText);
  });

  it('reads each flag, with or without a value', () => {
    expect(readHeaderText('?sucomplete')).toBe(signupCompleteLoginText);
    expect(readHeaderText('?expired')).toBe(sessionExpiredLoginText);
    expect(readHeaderText('?pucomplete=true')).toBe(passwordUpdatedLoginText);
  });

  it('ignores unrelated query parameters', () => {
    expect(readHeaderText('?utm_source=mail')).toBe(defaultLoginText);
  });
});

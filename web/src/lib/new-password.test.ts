import { describe, expect, it } from 'vitest';
import { canSubmitNewPassword, isConfirmationMismatched } from './new-password';

describe('isConfirmationMismatched', () => {
  it('stays quiet while the confirmation is empty', () => {
    expect(isConfirmationMismatched('Strong-Password-1', '')).toBe(false);
  });

  it('reports a confirmation that differs, even by case or a trailing space', () => {
    expect(isConfirmationMismatched('Strong-Password-1', 'strong-password-1')).toBe(true);
    expect(isConfirmationMismatched('Strong-Password-1', 'Strong-Password-1 ')).toBe(true);
  });

  it('accepts an equal confirmation', () => {
    expect(isConfirmationMismatched('Strong-Password-1', 'Strong-Password-1')).toBe(false);
  });
});

describe('canSubmitNewPassword', () => {
  it('needs a password that passes every rule', () => {
    expect(canSubmitNewPassword('short-1A', 'short-1A')).toBe(false);
    expect(canSubmitNewPassword('alllowercaseletters', 'alllowercaseletters')).toBe(false);
    expect(canSubmitNewPassword(' Leading-space-1', ' Leading-space-1')).toBe(false);
  });

  it('needs the confirmation to equal the password', () => {
    expect(canSubmitNewPassword('Strong-Password-1', '')).toBe(false);
    expect(canSubmitNewPassword('Strong-Password-1', 'Strong-Password-2')).toBe(false);
    expect(canSubmitNewPassword('Strong-Password-1', 'Strong-Password-1')).toBe(true);
  });
});

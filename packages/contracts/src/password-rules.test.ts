import { describe, expect, it } from 'vitest';
import { checkPasswordRules, countCharacterKinds, isPasswordValid } from './password-rules';

const ruleMet = (password: string, id: string) =>
  checkPasswordRules(password).find((rule) => rule.id === id)?.isMet;

describe('password rules', () => {
  it('accepts 10 to 36 characters and refuses 9 or 37', () => {
    expect(ruleMet('Abcdefgh1!', 'length')).toBe(true);
    expect(ruleMet('Abcdefg1!', 'length')).toBe(false);
    expect(ruleMet('Aa1' + 'x'.repeat(33), 'length')).toBe(true);
    expect(ruleMet('Aa1' + 'x'.repeat(34), 'length')).toBe(false);
  });

  it('refuses a leading or trailing space but allows one inside', () => {
    expect(isPasswordValid(' Abcdefgh12')).toBe(false);
    expect(isPasswordValid('Abcdefgh12 ')).toBe(false);
    expect(isPasswordValid('Abcde fgh12')).toBe(true);
  });

  it('needs 3 of the 4 kinds of character', () => {
    expect(countCharacterKinds('abcdefghij')).toBe(1);
    expect(isPasswordValid('abcdefghij')).toBe(false);
    expect(isPasswordValid('abcdefghi1')).toBe(false);
    expect(isPasswordValid('abcdefgh1!')).toBe(true);
    expect(isPasswordValid('Abcdefghij')).toBe(false);
    expect(isPasswordValid('Abcdefghi1')).toBe(true);
    expect(isPasswordValid('ABCDEFGH1!')).toBe(true);
    expect(countCharacterKinds('Ab1!')).toBe(4);
  });

  it('counts every listed special character, the space included, and nothing else', () => {
    for (const special of '!@#$%^&* _-+=?/;:.,') expect(countCharacterKinds(`a1${special}`)).toBe(3);
    expect(countCharacterKinds('a1~')).toBe(2);
    expect(countCharacterKinds('a1é')).toBe(2);
  });

  it('refuses the empty password on every rule', () => {
    expect(checkPasswordRules('').every((rule) => !rule.isMet)).toBe(true);
  });
});

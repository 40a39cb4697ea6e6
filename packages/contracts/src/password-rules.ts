import { z } from 'zod';

// The password rules of SPEC §5, shared by the web forms' live checklist and the server.
export const passwordLength = { min: 10, max: 36 } as const;
export const passwordSpecialCharacters = '!@#$%^&* _-+=?/;:.,';

export type PasswordRuleId = 'length' | 'noEdgeSpace' | 'threeKinds';

export interface PasswordRuleResult {
  id: PasswordRuleId;
  label: string;
  isMet: boolean;
}

const characterKinds = [
  (character: string) => character >= 'A' && character <= 'Z',
  (character: string) => character >= 'a' && character <= 'z',
  (character: string) => character >= '0' && character <= '9',
  (character: string) => passwordSpecialCharacters.includes(character),
];

export function countCharacterKinds(password: string): number {
  return characterKinds.filter((isKind) => [...password].some(isKind)).length;
}

export function checkPasswordRules(password: string): PasswordRuleResult[] {
  return [
    {
      id: 'length',
      label: `Between ${passwordLength.min} and ${passwordLength.max} characters`,
      isMet: password.length >= passwordLength.min && password.length <= passwordLength.max,
    },
    {
      id: 'noEdgeSpace',
      label: 'Does not begin or end with a space',
      isMet: password.length > 0 && !password.startsWith(' ') && !password.endsWith(' '),
    },
    {
      id: 'threeKinds',
      label: `At least 3 of: upper-case letter, lower-case letter, digit, special character (${passwordSpecialCharacters})`,
      isMet: countCharacterKinds(password) >= 3,
    },
  ];
}

export function isPasswordValid(password: string): boolean {
  return checkPasswordRules(password).every((rule) => rule.isMet);
}

export const passwordMismatchText = 'Passwords do not match.';

export const passwordRequirementsText = `Password must be ${passwordLength.min} to ${passwordLength.max} characters long, must not begin or end with a space and must contain at least 3 of: upper-case letter, lower-case letter, digit, special character (${passwordSpecialCharacters}).`;

// A password being chosen (sign-up, reset, change). Never trimmed: spaces inside count as characters.
export const newPasswordSchema = z.string().refine(isPasswordValid, { error: passwordRequirementsText });

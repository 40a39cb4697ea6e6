import { isPasswordValid } from '@cloudtrim/contracts/password-rules';

// SPEC §5: 'Passwords do not match.' shows only once something has been typed in the confirmation.
export function isConfirmationMismatched(password: string, confirmation: string): boolean {
  return confirmation.length > 0 && confirmation !== password;
}

// SPEC §5: submit stays disabled until the rules pass and the confirmation equals the password.
export function canSubmitNewPassword(password: string, confirmation: string): boolean {
  return isPasswordValid(password) && confirmation === password;
}

import {
  defaultLoginText,
  passwordUpdatedLoginText,
  sessionExpiredLoginText,
  signupCompleteLoginText,
} from '@cloudtrim/contracts/messages';

export type LoginHeaderTone = 'success' | 'warning' | 'default';

export interface LoginHeader {
  text: string;
  tone: LoginHeaderTone;
}

/** The /login header of SPEC §2, chosen by which flag the query carries (?sucomplete, ?expired, ?pucomplete). */
export function getLoginHeader(searchParams: URLSearchParams): LoginHeader {
  if (searchParams.has('sucomplete')) return { text: signupCompleteLoginText, tone: 'success' };
  if (searchParams.has('expired')) return { text: sessionExpiredLoginText, tone: 'warning' };
  if (searchParams.has('pucomplete')) return { text: passwordUpdatedLoginText, tone: 'success' };
  return { text: defaultLoginText, tone: 'default' };
}

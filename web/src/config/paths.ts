// The one route table. Signed-in routes match exactly (SPEC §2); anything unlisted is 'This url is not valid.'.
export const paths = {
  // Public sign-in area
  start: '/',
  login: '/login',
  signUp: '/signup',
  recover: '/recover',
  resetPassword: '/ResetPassword',
  verify: '/verify',
  // Public demo
  sandbox: '/sandbox',
  // Signed-in shell
  home: '/home',
  logs: '/logs',
  resources: '/resources',
  pending: '/pending',
  team: '/team',
  tenants: '/tenants',
  profile: '/profile',
  recommendations: '/recommendations',
  automation: '/automation',
  analysis: '/analysis',
  security: '/security',
  sidebar: '/sidebar',
} as const;

export type LoginNotice = 'sucomplete' | 'expired' | 'pucomplete';

export function createLoginHref(notice?: LoginNotice): string {
  return notice ? `${paths.login}?${notice}` : paths.login;
}

export function createChangePasswordHref(): string {
  return `${paths.profile}?changePassword=true`;
}

// With DEMO on, a newcomer gets an account to log in with at once.
import { hashPassword } from '../../lib/password-hasher';
import type { AccountRepository } from '../account/account.repository';

export const demoAccount = {
  email: 'demo@cloudtrim.dev',
  password: 'Cloudtrim-Demo-2026',
  firstName: 'Demo',
  lastName: 'User',
  company: 'Cloudtrim Demo',
} as const;

export class DemoService {
  constructor(private readonly users: AccountRepository) {}

  // Idempotent: every start with DEMO on calls it. Answers the demo user's team.
  async seedDemoAccount(): Promise<{ userId: string; teamId: string }> {
    const existing = await this.users.findByEmail(demoAccount.email);
    if (existing) return { userId: existing.id, teamId: existing.teamId };
    const user = await this.users.createWithTeam({
      email: demoAccount.email,
      passwordHash: await hashPassword(demoAccount.password),
      firstName: demoAccount.firstName,
      lastName: demoAccount.lastName,
      company: demoAccount.company,
    });
    return { userId: user.id, teamId: user.teamId };
  }
}

// An estate for the benchmarks: a user whose team has every emulated tenant connected, through the
// same service calls the Tenants page makes.
import { hashPassword } from '../../server/src/lib/password-hasher';
import type { EmulatorProcessHandle } from './emulator-process';
import type { BenchServer } from './harness';

export const benchPassword = 'Bench-Password-2026';

export async function connectEstate(
  server: BenchServer,
  emulator: EmulatorProcessHandle,
  email: string,
): Promise<{ teamId: string; tenantIds: string[] }> {
  const { container } = server;
  const owner = await container.repositories.account.createWithTeam({
    email,
    passwordHash: await hashPassword(benchPassword),
    firstName: 'Bench',
    lastName: 'User',
  });
  for (const tenant of emulator.tenants) {
    const principal = tenant.principals.find((candidate) => candidate.writeSubscriptionIds.length > 0)!;
    await container.tenants.addTenant(owner.teamId, {
      Type: 'Azure',
      FriendlyName: tenant.displayName,
      TenantId: tenant.tenantId,
      ApplicationId: principal.applicationId,
      ServicePrincipalSecret: principal.secret,
    });
  }
  const tenantIds = (await container.tenants.listTenants(owner.teamId)).map((tenant) => tenant.Id);
  return { teamId: owner.teamId, tenantIds };
}

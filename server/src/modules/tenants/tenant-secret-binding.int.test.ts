// Each tenant's stored secret is sealed bound to the tenant's id (AES-GCM associated data): a
// ciphertext copied onto another tenant's row does not open there. Secrets stored before the
// binding are sealed again, bound, at start-up.
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectTenant, createCloudTestContext, type CloudTestContext } from '../../../test/azure-emulator';
import { createUser } from '../../../test/helper';
import { tenants } from '../../db/schema';
import { SecretBox } from '../../lib/secret-box';

let context: CloudTestContext;

beforeAll(async () => {
  context = await createCloudTestContext({ emulator: { fleetSize: 4 } });
});
afterAll(() => context.close());

async function readRow(id: string) {
  const [row] = await context.container.database.db.select().from(tenants).where(eq(tenants.id, id));
  return row!;
}

describe("a tenant's stored secret", () => {
  it("opens only on its own tenant's row", async () => {
    const first = await createUser(context);
    const second = await createUser(context);
    const firstId = await connectTenant(context, first.teamId, 0, 0);
    const secondId = await connectTenant(context, second.teamId, 1, 0);
    const firstRow = await readRow(firstId);
    expect(firstRow.encryptedSecret).toMatch(/^v2:/);
    expect(context.container.tenants.readCredentials(firstRow)?.secret).toBe(
      context.emulator.tenants[0]!.principals[0]!.secret,
    );
    await context.container.database.db.execute(sql`
      update tenant set encrypted_secret = ${firstRow.encryptedSecret} where id = ${secondId}::uuid`);
    const swapped = await readRow(secondId);
    expect(() => context.container.tenants.readCredentials(swapped)).toThrow();
  });

  it('stored before the binding is sealed again, bound, and still opens', async () => {
    const owner = await createUser(context);
    const id = await connectTenant(context, owner.teamId, 0, 0);
    const secret = context.emulator.tenants[0]!.principals[0]!.secret;
    const unbound = new SecretBox(context.secrets.encryptionKey).encrypt(secret);
    await context.container.database.db.execute(sql`
      update tenant set encrypted_secret = ${unbound} where id = ${id}::uuid`);
    expect(await context.container.tenants.bindStoredSecrets()).toBeGreaterThanOrEqual(1);
    const row = await readRow(id);
    expect(row.encryptedSecret).toMatch(/^v2:/);
    expect(context.container.tenants.readCredentials(row)?.secret).toBe(secret);
    expect(await context.container.tenants.bindStoredSecrets()).toBe(0);
  });
});

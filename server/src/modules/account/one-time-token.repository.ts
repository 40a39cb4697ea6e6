// One-time tokens (sign-up verify links, password reset codes; only their SHA-256 is stored): the
// one_time_token rows are written here only, each spent in its caller's transaction with what it
// unlocks (an account created, a password set).
import { and, eq, gt, isNull, lt } from 'drizzle-orm';
import type { Executor } from '../../db/database';
import { oneTimeTokens } from '../../db/schema';

export type OneTimeTokenPurpose = (typeof oneTimeTokens.$inferSelect)['purpose'];

export async function insertOneTimeToken(
  db: Executor,
  token: { purpose: OneTimeTokenPurpose; email: string; tokenHash: string; createdAt: Date; expiresAt: Date },
): Promise<void> {
  await db.insert(oneTimeTokens).values(token);
}

// Spends the verify token of `email`, if still unused and unexpired. False when it was not.
export async function spendVerifyToken(
  db: Executor,
  tokenHash: string,
  email: string,
  now: Date,
): Promise<boolean> {
  const consumed = await db
    .update(oneTimeTokens)
    .set({ usedAt: now })
    .where(
      and(
        eq(oneTimeTokens.tokenHash, tokenHash),
        eq(oneTimeTokens.purpose, 'verify'),
        eq(oneTimeTokens.email, email),
        isNull(oneTimeTokens.usedAt),
        gt(oneTimeTokens.expiresAt, now),
      ),
    )
    .returning({ id: oneTimeTokens.id });
  return consumed.length > 0;
}

// Spends the reset code, if still unused and unexpired, and every other open code of its address
// with it. Answers the address, or undefined when the code was no longer usable.
export async function spendResetCode(db: Executor, codeHash: string, now: Date): Promise<string | undefined> {
  const [consumed] = await db
    .update(oneTimeTokens)
    .set({ usedAt: now })
    .where(
      and(
        eq(oneTimeTokens.tokenHash, codeHash),
        eq(oneTimeTokens.purpose, 'reset'),
        isNull(oneTimeTokens.usedAt),
        gt(oneTimeTokens.expiresAt, now),
      ),
    )
    .returning({ email: oneTimeTokens.email });
  if (!consumed) return undefined;
  await db
    .update(oneTimeTokens)
    .set({ usedAt: now })
    .where(
      and(
        eq(oneTimeTokens.purpose, 'reset'),
        eq(oneTimeTokens.email, consumed.email),
        isNull(oneTimeTokens.usedAt),
      ),
    );
  return consumed.email;
}

export async function deleteExpiredOneTimeTokens(
  db: Executor,
  purpose: OneTimeTokenPurpose,
  cutoff: Date,
): Promise<void> {
  await db
    .delete(oneTimeTokens)
    .where(and(eq(oneTimeTokens.purpose, purpose), lt(oneTimeTokens.expiresAt, cutoff)));
}

import { and, eq, gt, isNull, lt } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { oneTimeTokens, users } from '../../db/schema';

export interface ResetCode {
  email: string;
  expiresAt: Date;
  usedAt: Date | null;
}

// Password reset codes: one_time_token rows of purpose 'reset'; only their SHA-256 is stored.
export class PasswordRepository {
  constructor(private readonly db: Db) {}

  async insertResetCode(email: string, codeHash: string, createdAt: Date, expiresAt: Date): Promise<void> {
    await this.db
      .insert(oneTimeTokens)
      .values({ purpose: 'reset', email, tokenHash: codeHash, createdAt, expiresAt });
  }

  async findResetCode(codeHash: string): Promise<ResetCode | undefined> {
    const [row] = await this.db
      .select({
        email: oneTimeTokens.email,
        expiresAt: oneTimeTokens.expiresAt,
        usedAt: oneTimeTokens.usedAt,
      })
      .from(oneTimeTokens)
      .where(and(eq(oneTimeTokens.tokenHash, codeHash), eq(oneTimeTokens.purpose, 'reset')));
    return row;
  }

  // Consumes the code and sets the password, both or neither; every other open code of the address
  // is spent with it. False when the code was no longer usable.
  async resetPassword(codeHash: string, userId: string, passwordHash: string, now: Date): Promise<boolean> {
    return this.db.transaction(async (transaction) => {
      const [consumed] = await transaction
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
      if (!consumed) return false;
      await transaction
        .update(oneTimeTokens)
        .set({ usedAt: now })
        .where(
          and(
            eq(oneTimeTokens.purpose, 'reset'),
            eq(oneTimeTokens.email, consumed.email),
            isNull(oneTimeTokens.usedAt),
          ),
        );
      await transaction.update(users).set({ passwordHash, updatedAt: now }).where(eq(users.id, userId));
      return true;
    });
  }

  async deleteExpiredResetCodes(cutoff: Date): Promise<void> {
    await this.db
      .delete(oneTimeTokens)
      .where(and(eq(oneTimeTokens.purpose, 'reset'), lt(oneTimeTokens.expiresAt, cutoff)));
  }
}

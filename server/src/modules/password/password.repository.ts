import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { oneTimeTokens } from '../../db/schema';
import { setUserPasswordHash } from '../account/account.repository';
import {
  deleteExpiredOneTimeTokens,
  insertOneTimeToken,
  spendResetCode,
} from '../account/one-time-token.repository';

export interface ResetCode {
  email: string;
  expiresAt: Date;
  usedAt: Date | null;
}

// Password reset codes: one_time_token rows of purpose 'reset'; only their SHA-256 is stored.
export class PasswordRepository {
  constructor(private readonly db: Db) {}

  async insertResetCode(email: string, codeHash: string, createdAt: Date, expiresAt: Date): Promise<void> {
    await insertOneTimeToken(this.db, { purpose: 'reset', email, tokenHash: codeHash, createdAt, expiresAt });
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
      if (!(await spendResetCode(transaction, codeHash, now))) return false;
      await setUserPasswordHash(transaction, userId, passwordHash, now);
      return true;
    });
  }

  async deleteExpiredResetCodes(cutoff: Date): Promise<void> {
    await deleteExpiredOneTimeTokens(this.db, 'reset', cutoff);
  }
}

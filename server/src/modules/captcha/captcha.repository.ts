import { lt } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { usedCaptchaChallenges } from '../../db/schema';

export class CaptchaRepository {
  constructor(private readonly db: Db) {}

  // True the first time a challenge is claimed, false ever after (until it is purged, once expired).
  async claim(challenge: string, expiresAt: Date): Promise<boolean> {
    const rows = await this.db
      .insert(usedCaptchaChallenges)
      .values({ challenge, expiresAt })
      .onConflictDoNothing()
      .returning({ challenge: usedCaptchaChallenges.challenge });
    return rows.length === 1;
  }

  async deleteExpired(now: Date): Promise<void> {
    await this.db.delete(usedCaptchaChallenges).where(lt(usedCaptchaChallenges.expiresAt, now));
  }
}

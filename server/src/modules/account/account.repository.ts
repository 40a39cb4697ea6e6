import { eq } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { teams, users } from '../../db/schema';
import { nameTeamFor } from './team-name';

export type User = typeof users.$inferSelect;
export type NewUser = Omit<typeof users.$inferInsert, 'id' | 'teamId' | 'createdAt' | 'updatedAt'>;
export type ProfileUpdate = Partial<
  Pick<
    User,
    | 'firstName'
    | 'lastName'
    | 'address1'
    | 'address2'
    | 'city'
    | 'state'
    | 'zipcode'
    | 'country'
    | 'companySize'
    | 'annualRevenue'
    | 'industry'
  >
>;

export class AccountRepository {
  constructor(private readonly db: Db) {}

  async findByEmail(email: string): Promise<User | undefined> {
    const [row] = await this.db.select().from(users).where(eq(users.email, email.toLowerCase()));
    return row;
  }

  async findById(id: string): Promise<User | undefined> {
    const [row] = await this.db.select().from(users).where(eq(users.id, id));
    return row;
  }

  // A user always belongs to a team: one of their own unless an invitation names another.
  async createWithTeam(user: NewUser, teamId?: string): Promise<User> {
    return this.db.transaction(async (transaction) => {
      let resolvedTeamId = teamId;
      if (!resolvedTeamId) {
        const teamName = nameTeamFor(user);
        const [team] = await transaction.insert(teams).values({ name: teamName }).returning({ id: teams.id });
        resolvedTeamId = team!.id;
      }
      const [created] = await transaction
        .insert(users)
        .values({
          ...user,
          email: user.email.toLowerCase(),
          teamId: resolvedTeamId,
          // The creator of a team is its Owner; one who joins an existing team is a Member.
          role: user.role ?? (teamId ? 'Member' : 'Owner'),
        })
        .returning();
      return created!;
    });
  }

  async updateProfile(id: string, update: ProfileUpdate): Promise<User | undefined> {
    const [user] = await this.db
      .update(users)
      .set({ ...update, updatedAt: new Date() })
      .where(eq(users.id, id))
      .returning();
    return user;
  }

  async updatePasswordHash(id: string, passwordHash: string): Promise<void> {
    await this.db.update(users).set({ passwordHash, updatedAt: new Date() }).where(eq(users.id, id));
  }
}

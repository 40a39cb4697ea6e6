import { and, eq } from 'drizzle-orm';
import type { Db, Executor } from '../../db/database';
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

// The team and app_user rows are written here only (ARCHITECTURE.md, "Tables and their owners"):
// sign-up, team membership, password resets and mail preferences write them through these, in their
// own transaction where the write must commit with their other rows.

export async function insertTeam(db: Executor, name: string): Promise<string> {
  const [team] = await db.insert(teams).values({ name }).returning({ id: teams.id });
  return team!.id;
}

export async function insertUser(db: Executor, user: typeof users.$inferInsert): Promise<User> {
  const [created] = await db.insert(users).values(user).returning();
  return created!;
}

export async function setUserRole(db: Executor, userId: string, role: User['role']): Promise<void> {
  await db.update(users).set({ role, updatedAt: new Date() }).where(eq(users.id, userId));
}

// The member, still of `fromTeamId`, moves to `toTeamId` as its Owner.
export async function moveUserToTeam(
  db: Executor,
  userId: string,
  fromTeamId: string,
  toTeamId: string,
): Promise<void> {
  await db
    .update(users)
    .set({ teamId: toTeamId, role: 'Owner', joinedTeamAt: new Date(), updatedAt: new Date() })
    .where(and(eq(users.id, userId), eq(users.teamId, fromTeamId)));
}

export async function setUserPasswordHash(
  db: Executor,
  userId: string,
  passwordHash: string,
  at: Date,
): Promise<void> {
  await db.update(users).set({ passwordHash, updatedAt: at }).where(eq(users.id, userId));
}

export async function setUserMailPreferences(
  db: Executor,
  userId: string,
  preferences: Partial<Pick<User, 'budgetMails' | 'anomalyMails' | 'securityMails'>>,
): Promise<void> {
  await db.update(users).set(preferences).where(eq(users.id, userId));
}

export async function updateTeamSettings<
  Settings extends { lookbackDays: number; defaultMaintenanceWindow: number },
>(
  db: Executor,
  teamId: string,
  settings: Settings,
): Promise<{ lookbackDays: number; defaultMaintenanceWindow: number }> {
  const [saved] = await db.update(teams).set(settings).where(eq(teams.id, teamId)).returning({
    lookbackDays: teams.lookbackDays,
    defaultMaintenanceWindow: teams.defaultMaintenanceWindow,
  });
  return saved!;
}

// Migration 0017 (issue 23 §2): on a database holding teams from before roles, the first member of every
// team becomes its Owner, the others Members, each a member since their account was made.
import { randomUUID } from 'node:crypto';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';

const migrationsFolder = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../drizzle');

const rolesMigration = '0017_team_roles';
let adminUrl: URL;
let name: string;
let client: pg.Client;
let beforeRoles: string;

beforeAll(async () => {
  adminUrl = new URL(inject('databaseAdminUrl'));
  name = `test_${randomUUID().replaceAll('-', '')}`;
  const admin = new pg.Client({ connectionString: adminUrl.toString() });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  // The migrations as they were before this one.
  beforeRoles = await mkdtemp(path.join(os.tmpdir(), 'migrations-'));
  await cp(migrationsFolder, beforeRoles, { recursive: true });
  const journalFile = path.join(beforeRoles, 'meta', '_journal.json');
  const journal = JSON.parse(await readFile(journalFile, 'utf8')) as { entries: { tag: string }[] };
  const index = journal.entries.findIndex((entry) => entry.tag === rolesMigration);
  journal.entries = journal.entries.slice(0, index);
  await writeFile(journalFile, JSON.stringify(journal));
});

afterAll(async () => {
  await client?.end();
  if (beforeRoles) await rm(beforeRoles, { recursive: true, force: true });
  const admin = new pg.Client({ connectionString: adminUrl.toString() });
  await admin.connect();
  await admin.query(`drop database if exists ${name}`);
  await admin.end();
});

it("makes each existing team's first member its Owner and the others Members, joined when they signed up", async () => {
  await migrate(drizzle(client), { migrationsFolder: beforeRoles });
  const { rows: teams } = await client.query<{ id: string }>(
    `insert into team (name) values ('Alpha'), ('Beta') returning id`,
  );
  const signUp = (teamId: string, email: string, createdAt: string) =>
    client.query(
      `insert into app_user (team_id, email, password_hash, first_name, last_name, created_at)
       values ($1, $2, 'x', 'A', 'B', $3)`,
      [teamId, email, createdAt],
    );
  await signUp(teams[0]!.id, 'second@alpha.example', '2026-03-02T00:00:00Z');
  await signUp(teams[0]!.id, 'first@alpha.example', '2026-03-01T00:00:00Z');
  await signUp(teams[0]!.id, 'third@alpha.example', '2026-03-03T00:00:00Z');
  await signUp(teams[1]!.id, 'only@beta.example', '2026-04-01T00:00:00Z');

  await migrate(drizzle(client), { migrationsFolder });

  const { rows } = await client.query<{ email: string; role: string; joined: Date }>(
    'select email, role, joined_team_at as joined from app_user order by email',
  );
  expect(rows.map((row) => [row.email, row.role, row.joined.toISOString()])).toEqual([
    ['first@alpha.example', 'Owner', '2026-03-01T00:00:00.000Z'],
    ['only@beta.example', 'Owner', '2026-04-01T00:00:00.000Z'],
    ['second@alpha.example', 'Member', '2026-03-02T00:00:00.000Z'],
    ['third@alpha.example', 'Member', '2026-03-03T00:00:00.000Z'],
  ]);
});

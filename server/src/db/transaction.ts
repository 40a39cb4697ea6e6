// One PostgreSQL transaction shared by the repositories and the job queue: the rows a service writes
// and the jobs it sends commit together or not at all (a transactional outbox on pg-boss).
import { drizzle } from 'drizzle-orm/node-postgres';
import type pg from 'pg';
import type { Database, Db } from './database';
import * as schema from './schema';

export interface Transaction {
  // Drizzle on the transaction's client, for repositories.
  db: Db;
  // pg-boss's executor interface (`send(name, data, { db })`), on the same client.
  executeSql(text: string, values?: unknown[]): Promise<pg.QueryResult>;
}

export type TransactionRunner = <Result>(
  work: (transaction: Transaction) => Promise<Result>,
) => Promise<Result>;

export function createTransactionRunner(database: Pick<Database, 'pool'>): TransactionRunner {
  return async (work) => {
    const client = await database.pool.connect();
    try {
      await client.query('begin');
      const transaction: Transaction = {
        db: drizzle(client, { schema }),
        executeSql: (text, values) => client.query(text, values),
      };
      const result = await work(transaction);
      await client.query('commit');
      return result;
    } catch (error) {
      await client.query('rollback').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  };
}

import { and, asc, eq, inArray, lte, sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { pipelineApprovals, pipelineOpenApprovals, pipelineRuns, pipelineVersions } from '../../db/schema';
import { openApprovalStates } from './pipelines.approvals';

export type PipelineApprovalRow = typeof pipelineApprovals.$inferSelect;

// A pipeline's approvals: their rows and decisions, who proposed each, and the one-open-approval
// claims. Who decides is the team's member (TeamRepository.findDecider).
export class ApprovalsRepository {
  constructor(private readonly db: Db) {}

  async insertApproval(approval: Omit<typeof pipelineApprovals.$inferInsert, 'id'>): Promise<string> {
    const [row] = await this.db
      .insert(pipelineApprovals)
      .values(approval)
      .returning({ id: pipelineApprovals.id });
    return row!.id;
  }

  async findApproval(teamId: string, id: string): Promise<PipelineApprovalRow | undefined> {
    const [row] = await this.db
      .select()
      .from(pipelineApprovals)
      .where(and(eq(pipelineApprovals.teamId, teamId), eq(pipelineApprovals.id, id)));
    return row;
  }

  // Locked for the transaction: a decision and the tick's carrying out never race.
  async lockApproval(teamId: string, id: string): Promise<PipelineApprovalRow | undefined> {
    const [row] = await this.db
      .select()
      .from(pipelineApprovals)
      .where(and(eq(pipelineApprovals.teamId, teamId), eq(pipelineApprovals.id, id)))
      .for('update');
    return row;
  }

  // Approved approvals whose grace period is over, one a transaction, skipping those another worker holds.
  async lockDueApproval(at: Date): Promise<PipelineApprovalRow | undefined> {
    const [row] = await this.db
      .select()
      .from(pipelineApprovals)
      .where(and(eq(pipelineApprovals.state, 'approved'), lte(pipelineApprovals.runsAfter, at)))
      .orderBy(asc(pipelineApprovals.runsAfter))
      .limit(1)
      .for('update', { skipLocked: true });
    return row;
  }

  async updateApproval(
    id: string,
    fields: Partial<Pick<PipelineApprovalRow, 'state' | 'decidedBy' | 'decidedAt' | 'carriedOutAt'>>,
  ): Promise<void> {
    await this.db.update(pipelineApprovals).set(fields).where(eq(pipelineApprovals.id, id));
  }

  // The proposers of each approval's run: the authors of the pipeline's versions up to the one the
  // run used, whoever pressed run, and the approval's own proposer.
  async listProposers(
    approvals: readonly Pick<PipelineApprovalRow, 'id' | 'runId' | 'proposedBy'>[],
  ): Promise<Map<string, Set<string>>> {
    const runIds = [...new Set(approvals.map((approval) => approval.runId))];
    const rows =
      runIds.length === 0
        ? []
        : await this.db
            .select({
              runId: pipelineRuns.id,
              startedBy: pipelineRuns.startedBy,
              author: pipelineVersions.createdBy,
            })
            .from(pipelineRuns)
            .leftJoin(
              pipelineVersions,
              and(
                eq(pipelineVersions.pipelineId, pipelineRuns.pipelineId),
                lte(pipelineVersions.version, pipelineRuns.version),
              ),
            )
            .where(inArray(pipelineRuns.id, runIds));
    const byRun = new Map<string, Set<string>>();
    for (const row of rows) {
      const proposers = byRun.get(row.runId) ?? new Set<string>();
      for (const id of [row.startedBy, row.author]) if (id) proposers.add(id);
      byRun.set(row.runId, proposers);
    }
    return new Map(
      approvals.map((approval) => {
        const proposers = new Set(byRun.get(approval.runId));
        if (approval.proposedBy) proposers.add(approval.proposedBy);
        return [approval.id, proposers];
      }),
    );
  }

  // The resources already held by an open approval of the same action.
  async listClaimed(actionKey: string, resourceIds: readonly string[]): Promise<Set<string>> {
    if (resourceIds.length === 0) return new Set();
    const rows = await this.db
      .select({ resourceId: pipelineOpenApprovals.resourceId })
      .from(pipelineOpenApprovals)
      .where(
        and(
          eq(pipelineOpenApprovals.actionKey, actionKey),
          inArray(pipelineOpenApprovals.resourceId, [...resourceIds]),
        ),
      );
    return new Set(rows.map((row) => row.resourceId));
  }

  // Claims the resources for the approval; answers those it got. A concurrent run's claim of the same
  // resource and action makes this insert wait for it to commit, then leaves the resource to it.
  // Inserted in one order, so two runs claiming overlapping sets cannot deadlock.
  async claim(approvalId: string, actionKey: string, resourceIds: readonly string[]): Promise<Set<string>> {
    if (resourceIds.length === 0) return new Set();
    const rows = await this.db
      .insert(pipelineOpenApprovals)
      .values([...new Set(resourceIds)].sort().map((resourceId) => ({ resourceId, actionKey, approvalId })))
      .onConflictDoNothing()
      .returning({ resourceId: pipelineOpenApprovals.resourceId });
    return new Set(rows.map((row) => row.resourceId));
  }

  async delete(approvalId: string): Promise<void> {
    await this.db.delete(pipelineApprovals).where(eq(pipelineApprovals.id, approvalId));
  }

  async setRunsAfter(approvalId: string, runsAfter: Date): Promise<void> {
    await this.db.update(pipelineApprovals).set({ runsAfter }).where(eq(pipelineApprovals.id, approvalId));
  }

  async release(approvalId: string): Promise<void> {
    await this.db.delete(pipelineOpenApprovals).where(eq(pipelineOpenApprovals.approvalId, approvalId));
  }

  // The pipeline's approvals that have not run, locked (the tick's carrying out skips a locked one).
  lockOpenForPipeline(teamId: string, pipelineId: string): Promise<PipelineApprovalRow[]> {
    return this.db
      .select()
      .from(pipelineApprovals)
      .where(
        and(
          eq(pipelineApprovals.teamId, teamId),
          eq(pipelineApprovals.pipelineId, pipelineId),
          inArray(pipelineApprovals.state, [...openApprovalStates]),
        ),
      )
      .orderBy(asc(pipelineApprovals.proposedAt))
      .for('update');
  }

  // The team's approvals still open, but for those `userId` proposed (by the approval's own proposer).
  listOpen(teamId: string, userId: string): Promise<PipelineApprovalRow[]> {
    return this.db
      .select()
      .from(pipelineApprovals)
      .where(
        and(
          eq(pipelineApprovals.teamId, teamId),
          inArray(pipelineApprovals.state, [...openApprovalStates]),
          sql`${pipelineApprovals.proposedBy} is distinct from ${userId}`,
        ),
      )
      .orderBy(asc(pipelineApprovals.proposedAt), asc(pipelineApprovals.id));
  }
}

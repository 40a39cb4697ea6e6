// What the team's estate holds, for the pickers: tenants, subscriptions, resource groups, tag keys
// and values as inventory has seen them, a page at a time.
import { scopePageSize, scopeQuerySchema, type ScopeResponse } from '@cloudtrim/contracts/scope';
import { badRequest } from '../../lib/http-errors';
import type { ScopeRepository } from './scope.repository';

export class ScopeService {
  constructor(private readonly scope: ScopeRepository) {}

  async listScope(teamId: string, query: unknown): Promise<ScopeResponse> {
    const parsed = scopeQuerySchema.safeParse(query);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw badRequest(issue.message, issue.path.map(String).join('.') || undefined);
    }
    const page = await this.scope.listPage(teamId, parsed.data, scopePageSize);
    return { Items: page.items, Page: parsed.data.page, TotalCount: page.totalCount };
  }
}

// Answers kept per team and question while what they are computed from stands still: a module's
// version of the team's data (the bill's for the cost calls, the findings' for the security
// summary) is read first, and an answer computed under it is given again until it changes.
// Dashboards ask the same questions again and again; a bound keeps the memory small.
import { BoundedMap } from './bounded-map';
import { FreshReads } from './fresh-read';

const cachedAnswerLimit = 500;

export interface CachedAnswer {
  version: string;
  answer: Promise<unknown>;
  /** The answer as the JSON a route sends, made on the first call that wants it. */
  json?: Promise<Buffer>;
}

export class VersionedAnswers {
  private readonly answers = new BoundedMap<string, CachedAnswer>(cachedAnswerLimit);
  private readonly versions = new FreshReads<string>();

  constructor(private readonly readVersion: (teamId: string) => Promise<string>) {}

  async read<Answer>(key: string, teamId: string, compute: () => Promise<Answer>): Promise<Answer> {
    return (await this.find(key, teamId, compute)).answer as Promise<Answer>;
  }

  async find(key: string, teamId: string, compute: () => Promise<unknown>): Promise<CachedAnswer> {
    // Ten dashboards asking at once share one read of the version, begun after each asked.
    const version = await this.versions.read(teamId, () => this.readVersion(teamId));
    const cached = this.answers.get(key);
    if (cached && cached.version === version) {
      // Most recently used last, so the bound drops the oldest.
      this.answers.remember(key, cached);
      return cached;
    }
    const answer = compute();
    const entry: CachedAnswer = { version, answer };
    this.answers.remember(key, entry);
    answer.catch(() => {
      if (this.answers.get(key) === entry) this.answers.delete(key);
    });
    return entry;
  }
}

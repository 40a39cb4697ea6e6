// argon2id keeps a core busy for tens of milliseconds per check, on libuv's thread pool (four
// threads): a login flood would take every core and starve the event loop serving every other
// call. Checks run at most `concurrency` at a time, leaving a core to the API, and a flood beyond
// `waitingLimit` queued checks is refused at once rather than queued without end.
import { availableParallelism } from 'node:os';
import { HttpError } from '../../lib/http-errors';

export const loginBusyText = 'Too many logins at once. Please try again in a moment.';

export class PasswordCheckQueue {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly concurrency = Math.max(1, availableParallelism() - 1),
    private readonly waitingLimit = 64,
  ) {}

  async run<Result>(check: () => Promise<Result>): Promise<Result> {
    if (this.running < this.concurrency) {
      this.running += 1;
    } else {
      if (this.waiting.length >= this.waitingLimit) throw new HttpError(503, loginBusyText);
      // The finishing check hands its place over, so `running` already counts this one.
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
    try {
      return await check();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running -= 1;
    }
  }
}

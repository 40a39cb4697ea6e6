// One read shared by every caller that asks while it waits to start. Each caller gets a read that
// began after it asked, so it sees every write committed before its call, as a read of its own
// would; but ten concurrent calls for a key cost one or two reads, not ten. At most one read per
// key runs at a time: a caller arriving during it waits for the next, which starts when it ends.
export class FreshReads<Value> {
  private readonly running = new Map<string, Promise<Value>>();
  private readonly queued = new Map<string, Promise<Value>>();

  read(key: string, load: () => Promise<Value>): Promise<Value> {
    const queued = this.queued.get(key);
    if (queued) return queued;
    const start = () => {
      this.queued.delete(key);
      const read = load();
      this.running.set(key, read);
      const forget = () => {
        if (this.running.get(key) === read) this.running.delete(key);
      };
      read.then(forget, forget);
      return read;
    };
    const current = this.running.get(key);
    if (!current) return start();
    const next = current.then(start, start);
    this.queued.set(key, next);
    return next;
  }
}

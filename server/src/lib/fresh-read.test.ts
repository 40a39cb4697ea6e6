import { describe, expect, it } from 'vitest';
import { FreshReads } from './fresh-read';

function controlledLoads() {
  const started: { resolve(value: number): void; reject(error: Error): void }[] = [];
  const load = () =>
    new Promise<number>((resolve, reject) => {
      started.push({ resolve, reject });
    });
  return { started, load };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('FreshReads', () => {
  it('gives every caller a read that started after it asked, shared with the others waiting', async () => {
    const reads = new FreshReads<number>();
    const { started, load } = controlledLoads();
    const first = reads.read('team', load);
    expect(started).toHaveLength(1);
    // Asked while the first read runs: neither may use it, both share the next.
    const second = reads.read('team', load);
    const third = reads.read('team', load);
    await settle();
    expect(started).toHaveLength(1);
    started[0]!.resolve(1);
    expect(await first).toBe(1);
    await settle();
    expect(started).toHaveLength(2);
    // Asked while the shared read runs: waits for one more.
    const fourth = reads.read('team', load);
    started[1]!.resolve(2);
    expect([await second, await third]).toEqual([2, 2]);
    await settle();
    expect(started).toHaveLength(3);
    started[2]!.resolve(3);
    expect(await fourth).toBe(3);
    // Nothing running: the next caller starts a read at once.
    const fifth = reads.read('team', load);
    expect(started).toHaveLength(4);
    started[3]!.resolve(4);
    expect(await fifth).toBe(4);
  });

  it('keeps keys apart, and a failed read fails only its own callers', async () => {
    const reads = new FreshReads<number>();
    const { started, load } = controlledLoads();
    const failing = reads.read('a', load);
    const other = reads.read('b', load);
    expect(started).toHaveLength(2);
    const afterFailure = reads.read('a', load);
    started[0]!.reject(new Error('database away'));
    await expect(failing).rejects.toThrow('database away');
    await settle();
    started[2]!.resolve(5);
    started[1]!.resolve(6);
    expect([await afterFailure, await other]).toEqual([5, 6]);
  });
});

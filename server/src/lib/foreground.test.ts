import { describe, expect, it } from 'vitest';
import { ForegroundGauge, giveWayTo, waitForForeground } from './foreground';

describe('ForegroundGauge', () => {
  it('lets background work on at once while no request is in flight', async () => {
    const gauge = new ForegroundGauge();
    gauge.enter();
    gauge.leave();
    // A wait of a minute would time the test out.
    await gauge.giveWay(60_000);
  });

  it('holds background work until the last request in flight has left', async () => {
    const gauge = new ForegroundGauge();
    const events: string[] = [];
    gauge.enter();
    gauge.enter();
    const waiting = gauge.giveWay(60_000).then(() => events.push('background goes on'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    events.push('first request left');
    gauge.leave();
    await new Promise((resolve) => setTimeout(resolve, 20));
    events.push('second request left');
    gauge.leave();
    await waiting;
    expect(events).toEqual(['first request left', 'second request left', 'background goes on']);
  });

  it('lets background work on after its longest wait, however many requests keep coming', async () => {
    const gauge = new ForegroundGauge();
    gauge.enter();
    await gauge.giveWay(30);
    // The same gauge, seen from another thread, through its shared memory.
    const seenElsewhere = new ForegroundGauge(gauge.buffer);
    let isDone = false;
    const waiting = seenElsewhere.giveWay(60_000).then(() => (isDone = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(isDone).toBe(false);
    gauge.leave();
    await waiting;
  });
});

describe("the job thread's waits", () => {
  it('stop once their credit is spent while requests keep coming, and let work on at once when none do', async () => {
    const gauge = new ForegroundGauge();
    giveWayTo(gauge, 20, 100);
    gauge.enter();
    // Two hundred yields back to back while a request never ends: 20 ms each would be four seconds;
    // the credit (100 ms in hand, earned back only by running) lets about five of them wait. The
    // bound leaves a loaded machine's stalls nearly two seconds.
    const startedAt = performance.now();
    for (let index = 0; index < 200; index += 1) await waitForForeground();
    expect(performance.now() - startedAt).toBeLessThan(2_000);
    gauge.leave();
    // With no request in flight a yield waits for nothing (a minute's wait would time the test out).
    giveWayTo(gauge, 60_000, 60_000);
    await waitForForeground();
  });
});

import { describe, expect, it } from 'vitest';
import { ForegroundGauge } from './foreground';

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

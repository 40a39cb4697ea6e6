import { afterEach, describe, expect, it, vi } from 'vitest';
import { runInSlices, runToEnd, sliceMs } from './work-in-slices';

function* countTo(last: number, onStep: (step: number) => void = () => {}): Generator<void, number> {
  for (let step = 1; step <= last; step += 1) {
    onStep(step);
    yield;
  }
  return last;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('runToEnd', () => {
  it('runs every step at once and returns the result', () => {
    expect(runToEnd(countTo(1000))).toBe(1000);
  });
});

describe('runInSlices', () => {
  it('hands the thread back once a slice has taken sliceMs, and returns the same result', async () => {
    // Every step takes a third of a slice by this clock, so a slice holds three steps.
    let now = 0;
    vi.spyOn(performance, 'now').mockImplementation(() => now);
    const stepsBeforeOtherTask: number[] = [];
    let stepsRun = 0;
    setTimeout(() => stepsBeforeOtherTask.push(stepsRun));

    const result = await runInSlices(
      countTo(12, (step) => {
        stepsRun = step;
        now += sliceMs / 3;
      }),
    );

    expect(result).toBe(12);
    // Another task (the timer) ran between slices, before the work had ended.
    expect(stepsBeforeOtherTask).toHaveLength(1);
    expect(stepsBeforeOtherTask[0]).toBeLessThan(12);
  });

  it('stops at the next slice once its signal is aborted', async () => {
    let now = 0;
    vi.spyOn(performance, 'now').mockImplementation(() => now);
    const controller = new AbortController();
    let stepsRun = 0;
    const work = runInSlices(
      countTo(100, (step) => {
        stepsRun = step;
        now += sliceMs;
        if (step === 2) controller.abort(new Error('left the page'));
      }),
      { signal: controller.signal },
    );
    await expect(work).rejects.toThrow('left the page');
    expect(stepsRun).toBeLessThan(100);
  });
});

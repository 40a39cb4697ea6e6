import { describe, expect, it } from 'vitest';
import { createSeededRandom } from './noise.hash';
import {
  computeCpuLevel,
  computeDemand,
  createWorkloadProfile,
  readDayOfWeek,
  readMinuteOfWeek,
  type WorkloadKind,
  type WorkloadProfile,
} from './workload.model';

const seedKey = 12345;
const streamKey = 678;
const reference = { vcpus: 8, memoryGiB: 32, utcOffsetHours: -5 };
// Monday 2026-11-16 00:00 UTC, in minutes since the epoch.
const mondayMinute = Date.UTC(2026, 10, 16) / 60000;

function createProfile(kind: WorkloadKind, label = kind): WorkloadProfile {
  return createWorkloadProfile(kind, reference, createSeededRandom(1, label));
}

function computeAverageLevel(profile: WorkloadProfile, fromMinute: number, minutes: number): number {
  let sum = 0;
  for (let minute = fromMinute; minute < fromMinute + minutes; minute += 1) {
    sum += computeCpuLevel(profile, seedKey, streamKey, minute);
  }
  return sum / minutes;
}

describe('calendar helpers', () => {
  it('knows the day of the week of a minute', () => {
    expect(readDayOfWeek(0)).toBe(4);
    expect(readDayOfWeek(mondayMinute)).toBe(1);
    expect(readDayOfWeek(Date.UTC(2026, 10, 22, 23, 59) / 60000)).toBe(0);
    expect(readMinuteOfWeek(mondayMinute)).toBe(1440);
  });
});

describe('workload models', () => {
  it('are pure functions of seed, stream and minute', () => {
    const profile = createProfile('spiky');
    const first = computeDemand(profile, seedKey, streamKey, mondayMinute + 600);
    const again = computeDemand(createProfile('spiky'), seedKey, streamKey, mondayMinute + 600);
    expect(again).toEqual(first);
    expect(computeDemand(profile, seedKey + 1, streamKey, mondayMinute + 600)).not.toEqual(first);
  });

  it('keep demand within sane bounds for every kind', () => {
    for (const kind of ['idle', 'steady', 'businessHours', 'weeklyBatch', 'growing', 'spiky'] as const) {
      const profile = createProfile(kind);
      const cores: number[] = [];
      const memory: number[] = [];
      for (let minute = mondayMinute; minute < mondayMinute + 7 * 1440; minute += 7) {
        const demand = computeDemand(profile, seedKey, streamKey, minute);
        cores.push(demand.cpuCores);
        memory.push(demand.memoryGiB);
      }
      expect(Math.min(...cores)).toBeGreaterThan(0);
      expect(Math.max(...cores)).toBeLessThanOrEqual(reference.vcpus * 2);
      expect(Math.min(...memory)).toBeGreaterThan(0);
      expect(Math.max(...memory)).toBeLessThanOrEqual(reference.memoryGiB * 1.5);
    }
  });

  it('idle machines use a few percent of their cores', () => {
    expect(computeAverageLevel(createProfile('idle'), mondayMinute, 7 * 1440)).toBeLessThan(0.06);
  });

  it('steady machines hold their level through the week', () => {
    const profile = createProfile('steady');
    const daily = [0, 1, 2, 3, 4, 5, 6].map((day) =>
      computeAverageLevel(profile, mondayMinute + day * 1440, 1440),
    );
    for (const level of daily) expect(level).toBeCloseTo(profile.baseLevel, 1);
  });

  it('business-hours machines are busy on weekday office hours, local time, and quiet otherwise', () => {
    const profile = createProfile('businessHours');
    // 10:00 to 16:00 in New York is 15:00 to 21:00 UTC.
    const office = computeAverageLevel(profile, mondayMinute + 15 * 60, 6 * 60);
    const night = computeAverageLevel(profile, mondayMinute + 6 * 60, 4 * 60);
    const saturday = computeAverageLevel(profile, mondayMinute + 5 * 1440 + 15 * 60, 6 * 60);
    expect(office).toBeGreaterThan(night * 3);
    expect(office).toBeGreaterThan(saturday * 3);
  });

  it('weekly batch machines run hot only inside their weekly window', () => {
    const profile = createProfile('weeklyBatch');
    const weekStart = mondayMinute - 1440;
    const windowStart = weekStart + profile.batchStartMinuteOfWeek;
    const inside = computeAverageLevel(profile, windowStart + 20, profile.batchDurationMinutes - 40);
    const outside = computeAverageLevel(profile, windowStart + profile.batchDurationMinutes + 60, 1440);
    expect(inside).toBeGreaterThan(0.6);
    expect(outside).toBeLessThan(0.15);
  });

  it('growing machines need more every month', () => {
    const profile = createProfile('growing');
    const anchor = profile.growthAnchorMinute;
    const early = computeAverageLevel(profile, anchor, 1440);
    const later = computeAverageLevel(profile, anchor + 120 * 1440, 1440);
    expect(later).toBeGreaterThan(early * (1 + profile.growthPerDay * 100));
  });

  it('spiky machines spike in about their share of five-minute blocks', () => {
    const profile = createProfile('spiky');
    let spikes = 0;
    const blocks = 4000;
    for (let block = 0; block < blocks; block += 1) {
      if (computeCpuLevel(profile, seedKey, streamKey, mondayMinute + block * 5) > profile.baseLevel * 2.5)
        spikes += 1;
    }
    const share = spikes / blocks;
    expect(share).toBeGreaterThan(profile.spikeProbability * 0.5);
    expect(share).toBeLessThan(profile.spikeProbability * 1.6);
  });
});

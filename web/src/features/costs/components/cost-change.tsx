import { formatChangePercent, getChangeDirection } from '../../../lib/format-cost';

const arrows = { up: '▲', down: '▼', flat: '', none: '' } as const;

/** A change in cost: a rise in red, a fall in green (spending more is the bad news), with an arrow. */
export function CostChange({ percent }: { percent: number | null }) {
  const direction = getChangeDirection(percent);
  return (
    <span className={`cost-change cost-change-${direction}`}>
      {arrows[direction] ? (
        <span className="cost-change-arrow" aria-hidden="true">
          {arrows[direction]}
        </span>
      ) : null}
      {formatChangePercent(percent)}
    </span>
  );
}

import { noCostDataText } from '@cloudtrim/contracts/costs';
import { describeLoadError, isNetworkFailure } from '../../../lib/load-failure';

/** SPEC §8's list failure: 'Error: ' and the status text, or the empty state when the network failed. */
export function CostLoadFailure({ error }: { error: Error }) {
  if (isNetworkFailure(error)) return <p className="data-empty">{noCostDataText}</p>;
  return (
    <p className="data-error" role="alert">
      {describeLoadError(error)}
    </p>
  );
}

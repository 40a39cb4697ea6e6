import { describeLoadError, isNetworkFailure } from '../lib/load-failure';
import { DataLoading } from './data-loading';

interface ListLoadStateProps {
  // The list's query while it has no rows to show: failed, or still loading.
  query: { isError: boolean; error: Error | null };
  // What the list says when it has nothing, shown too when the network itself failed (SPEC §8).
  emptyText: string;
  // What is loading, for screen readers.
  loadingLabel: string;
}

/** A list's place before its rows: the load error ('Error: …'), or the spinner while it loads. */
export function ListLoadState({ query, emptyText, loadingLabel }: ListLoadStateProps) {
  if (!query.isError || !query.error) return <DataLoading label={loadingLabel} />;
  if (isNetworkFailure(query.error)) return <p className="data-empty">{emptyText}</p>;
  return (
    <p className="data-error" role="alert">
      {describeLoadError(query.error)}
    </p>
  );
}

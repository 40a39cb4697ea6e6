// SPEC §9: a resource's first 4 metric cards load at once; each later card waits until at least 5
// earlier cards are done, and stops being started once more than 15 cards have completed. The fifth
// card has only four earlier cards, so it waits for all of them rather than for ever.
export const immediateMetricCards = 4;
export const earlierCardsDoneToLoad = 5;
export const maxCompletedCardsToLoad = 15;

export interface MetricCardProgress {
  /** Whether each card, in display order, has finished loading (with data, without, or failed). */
  isDoneByIndex: readonly boolean[];
}

export function canLoadMetricCard(index: number, { isDoneByIndex }: MetricCardProgress): boolean {
  if (index < immediateMetricCards) return true;
  const earlierDone = isDoneByIndex.slice(0, index).filter(Boolean).length;
  const completed = isDoneByIndex.filter(Boolean).length;
  return earlierDone >= Math.min(earlierCardsDoneToLoad, index) && completed <= maxCompletedCardsToLoad;
}

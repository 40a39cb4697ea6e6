// Cross-validation for the backtest: the machines dealt into folds (every `folds`-th, in the fleet
// file's order, to the same fold); for each fold a choice is fitted on the other folds (of the
// candidates, the one meeting the targets there that saves most, else the one overloading least;
// a tie keeps the earlier candidate, the value as set coming first) and judged on the fold.
import type { FleetScore, MachineFuture } from '@cloudtrim/rightsizing/backtest-scoring';

export interface FoldResult<Candidate> {
  chosen: Candidate;
  held: FleetScore;
}

export function dealFolds<Item>(
  items: readonly Item[],
  folds: number,
  fold: number,
): {
  held: Item[];
  training: Item[];
} {
  return {
    held: items.filter((_, index) => index % folds === fold),
    training: items.filter((_, index) => index % folds !== fold),
  };
}

export function crossValidate<Candidate>(
  futures: readonly MachineFuture[],
  folds: number,
  candidates: readonly Candidate[],
  score: (machines: readonly MachineFuture[], candidate: Candidate) => FleetScore,
): FoldResult<Candidate>[] {
  const results: FoldResult<Candidate>[] = [];
  for (let fold = 0; fold < folds; fold += 1) {
    const { held, training } = dealFolds(futures, folds, fold);
    const trained = candidates.map((candidate) => ({ candidate, score: score(training, candidate) }));
    const meeting = trained.filter((entry) => meetsTargets(entry.score));
    // Array sort is stable: equal entries keep the candidates' order.
    const best = (
      meeting.length > 0
        ? meeting.sort((left, right) => right.score.saving - left.score.saving)
        : trained.sort((left, right) => left.score.overloadedStepShare - right.score.overloadedStepShare)
    )[0]!.candidate;
    results.push({ chosen: best, held: score(held, best) });
  }
  return results;
}

// The targets of issue 28 for the default: ≤ 0.5% overloaded steps, worst machine ≤ +2%, rollbacks
// ≤ 10% of the machines made cheaper.
export function meetsTargets(score: FleetScore): boolean {
  const rollbackShare = score.resizedDown === 0 ? 0 : score.rollbacks / score.resizedDown;
  return score.overloadedStepShare <= 0.005 && score.worstAddedOverloadShare <= 0.02 && rollbackShare <= 0.1;
}

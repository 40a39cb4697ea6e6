// Daily bills shaped by documented Azure events, not by the emulator, for judging the month-end
// forecast on steps it was not fitted to. Deterministic: an estate per seed, billed (ActualCost) and
// amortized (AmortizedCost) side by side. What each event does to the two views, as Microsoft
// documents it:
// - A reservation bought up front: ActualCost shows the whole term's fee as one charge on the day
//   of purchase and the usage it covers at no cost from then on; AmortizedCost spreads the fee over
//   the term's days as the covered usage's effective price, an unused share still charged
//   (learn.microsoft.com/azure/cost-management-billing/reservations/reservation-amortization and
//   .../reservations/understand-reserved-instance-usage-ea).
// - A reservation paid monthly: ActualCost shows the monthly fee (the term's price ÷ its months) on
//   the same day each month, here the 1st; AmortizedCost spreads each month's fee over its days
//   (.../reservations/monthly-payments-reservations).
// - A scale-out: a scale set's added instances bill by the hour from their start (a step up).
// - A shutdown mid-month: a service switched off (an App Service plan deleted) bills nothing from
//   that day on (a step down).
// - A database stopped: a stopped Azure Database for PostgreSQL flexible server bills its storage
//   only, and Azure starts it again after seven days
//   (learn.microsoft.com/azure/postgresql/flexible-server/how-to-stop-start-server-portal).
// Development machines shut down at weekends (auto-shutdown), storage grows slowly, usage wanders
// by a couple of percent a day.

export interface DocumentedBill {
  name: string;
  // Day numbers (days since 1970-01-01) to the day's cost.
  billed: Map<number, number>;
  amortized: Map<number, number>;
  events: string[];
}

export interface DocumentedWindow {
  // The first day billed and the first day of each month forecast (in order), the last one's end.
  firstDay: number;
  judgedMonths: readonly { first: number; last: number }[];
}

const reservationTermDays = 365;
const databaseRestartDays = 7;

export function buildDocumentedBill(seed: number, window: DocumentedWindow): DocumentedBill {
  const random = mulberry32(seed);
  const between = (low: number, high: number) => low + (high - low) * random();
  // Events fall anywhere in the bill (a real estate's steps do not wait for the months judged), so
  // the weeks a forecast learns from carry steps of their own.
  const lastDay = window.judgedMonths[window.judgedMonths.length - 1]!.last;
  const pickDay = () => window.firstDay + 3 + Math.floor(random() * (lastDay - window.firstDay - 6));
  const production = between(600, 1500);
  const development = between(150, 400);
  const storage = between(60, 200);
  const storageGrowth = between(0, 0.003);
  const databaseCompute = between(100, 300);
  const databaseStorage = between(10, 30);
  const appService = between(40, 150);
  const scaleOuts = [0, 1].map(() => ({ day: pickDay(), share: between(0.1, 0.3) }));
  const shutdownDay = pickDay();
  const databaseStopDays = [pickDay(), pickDay()];
  const purchaseDay = pickDay();
  const upfrontCoverage = between(0.4, 0.8) * production;
  const upfrontDiscount = between(0.3, 0.45);
  // The monthly reservation covers most of the database's compute.
  const monthlyCoverage = between(0.5, 0.9) * databaseCompute;
  const monthlyDiscount = between(0.25, 0.35);
  const monthlyFee = (monthlyCoverage * (1 - monthlyDiscount) * reservationTermDays) / 12;

  const billed = new Map<number, number>();
  const amortized = new Map<number, number>();
  for (let day = window.firstDay; day <= lastDay; day += 1) {
    const wander = () => 1 + 0.02 * (random() * 2 - 1);
    const date = new Date(day * 86_400_000);
    const isWeekend = [0, 6].includes(date.getUTCDay());
    const production_ =
      scaleOuts.reduce(
        (level, scaleOut) => level * (day >= scaleOut.day ? 1 + scaleOut.share : 1),
        production,
      ) * wander();
    const development_ = development * (isWeekend ? 0.1 : 1) * wander();
    const storage_ = storage * (1 + storageGrowth) ** (day - window.firstDay) * wander();
    const isDatabaseStopped = databaseStopDays.some(
      (stopDay) => day >= stopDay && day < stopDay + databaseRestartDays,
    );
    const databaseCompute_ = isDatabaseStopped ? 0 : databaseCompute * wander();
    const appService_ = day >= shutdownDay ? 0 : appService * wander();
    const shared = development_ + storage_ + databaseStorage + appService_;

    // Production VMs: the upfront reservation covers a fixed amount from its purchase on.
    const covered = day >= purchaseDay ? Math.min(upfrontCoverage, production_) : 0;
    const upfrontAmortized = day >= purchaseDay ? upfrontCoverage * (1 - upfrontDiscount) : 0;
    const purchase = day === purchaseDay ? upfrontCoverage * (1 - upfrontDiscount) * reservationTermDays : 0;
    // The database: the monthly reservation covers its compute when it runs, and is paid regardless.
    const databaseCovered = Math.min(monthlyCoverage, databaseCompute_);
    const daysInMonth = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate();
    const fee = date.getUTCDate() === 1 ? monthlyFee : 0;

    billed.set(day, shared + production_ - covered + purchase + databaseCompute_ - databaseCovered + fee);
    amortized.set(
      day,
      shared +
        production_ -
        covered +
        upfrontAmortized +
        databaseCompute_ -
        databaseCovered +
        monthlyFee / daysInMonth,
    );
  }
  const format = (day: number) => new Date(day * 86_400_000).toISOString().slice(0, 10);
  return {
    name: `estate ${seed}`,
    billed,
    amortized,
    events: [
      ...scaleOuts.map(
        (scaleOut) => `scale-out +${(scaleOut.share * 100).toFixed(0)}% ${format(scaleOut.day)}`,
      ),
      `App Service switched off ${format(shutdownDay)}`,
      ...databaseStopDays.map((stopDay) => `database stopped ${format(stopDay)}`),
      `reservation bought ${format(purchaseDay)}`,
    ],
  };
}

// A small seeded generator (mulberry32): the same seed, the same estate.
function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = state;
    mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4_294_967_296;
  };
}

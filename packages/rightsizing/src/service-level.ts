// The service level the engine sizes for and the backtest judges by (../shared/backtest/README.md):
// a 5-minute step whose average, laid on the size, is above 90% is overloaded, and at most 0.5% of a
// machine's steps may be.
export const overloadThresholdPct = 90;
export const oracleOverloadShare = 0.005;

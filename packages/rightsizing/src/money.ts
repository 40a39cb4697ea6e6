// A dollar figure as the engine answers it: rounded to the cent.
export function roundCents(amount: number): number {
  return Math.round(amount * 100) / 100;
}

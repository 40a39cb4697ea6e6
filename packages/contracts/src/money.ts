// Money as the app rounds and writes it, said once for the server's texts and the web's screens.

// An amount kept or compared to the cent.
export function roundCents(amount: number): number {
  return Math.round(amount * 100) / 100;
}

// Dollars as SPEC §3 writes them: a $ prefix, thousands separators and 2 decimals; a negative
// amount carries its sign before the $ (-$12.50).
export function formatDollars(amount: number): string {
  const text = Math.abs(amount).toLocaleString('en-US', {
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  });
  return amount < 0 ? `-$${text}` : `$${text}`;
}

// An amount in a bill's own currency, the code after it: 1,234.50 EUR.
export function formatMoney(amount: number, currency: string): string {
  const text = amount.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  return `${text} ${currency}`;
}

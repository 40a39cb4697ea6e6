// A plain-text table for a benchmark's figures: columns as wide as their widest cell.
export function printTable(header: string[], rows: string[][]): void {
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => row[column]!.length)),
  );
  const line = (cells: string[]) => cells.map((cell, column) => cell.padEnd(widths[column]!)).join('  ');
  console.log(line(header));
  for (const row of rows) console.log(line(row));
}

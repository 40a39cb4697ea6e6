import { vi } from 'vitest';

/** Stubs matchMedia as a window `width` pixels wide answers `(min-width: Npx)` queries. */
export function setWindowWidth(width: number): void {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: width >= Number(/min-width:\s*(\d+)px/.exec(query)?.[1] ?? 0),
    media: query,
    addEventListener: () => {},
    removeEventListener: () => {},
  }));
}

import type { ReactNode } from 'react';

interface TableScrollRegionProps {
  /** Names the region as its table is named. */
  label: string;
  children: ReactNode;
}

/**
 * A table wider than its panel scrolls sideways. Its frame takes the keyboard's focus and a name, so the
 * columns past the edge can be reached without a mouse (axe: scrollable-region-focusable).
 */
export function TableScrollRegion({ label, children }: TableScrollRegionProps) {
  return (
    <div className="table-responsive" role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}

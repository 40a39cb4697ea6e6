import type { ReactNode } from 'react';

interface PageHeadingProps {
  title: ReactNode;
  actions?: ReactNode;
}

export function PageHeading({ title, actions }: PageHeadingProps) {
  return (
    <div className="page-heading">
      <h1 className="page-heading-title">{title}</h1>
      {actions ? <div className="page-heading-actions">{actions}</div> : null}
    </div>
  );
}

import Spinner from 'react-bootstrap/Spinner';

interface DataLoadingProps {
  // What is loading, for screen readers.
  label: string;
  // A small spinner, for a card within a page.
  isSmall?: boolean;
}

/** The spinner a list or panel shows while its data loads. */
export function DataLoading({ label, isSmall = false }: DataLoadingProps) {
  return (
    <div className="data-loading">
      <Spinner
        animation="border"
        role="status"
        {...(isSmall ? { size: 'sm' as const } : { variant: 'primary' })}
      >
        <span className="visually-hidden">{label}</span>
      </Spinner>
    </div>
  );
}

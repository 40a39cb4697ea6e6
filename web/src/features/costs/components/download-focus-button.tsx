import Button from 'react-bootstrap/Button';
import Spinner from 'react-bootstrap/Spinner';
import type { CostExportQuery } from '@cloudtrim/contracts/costs';
import { ApiError } from '../../../lib/api-client';
import { useDownloadCostExport } from '../api/download-cost-export';

export const downloadFocusText = 'DOWNLOAD FOCUS CSV';

// A refused request (400) says what to change, e.g. a period longer than the bill is kept by day;
// any other failure reads as the lists' do, 'Error: ' and its status text.
export function describeDownloadError(error: Error): string {
  if (!(error instanceof ApiError)) return `Error: ${error.message}`;
  return `Error: ${error.status === 400 ? error.message : error.statusText || error.message}`;
}

/** The chosen period's bill as a FOCUS 1.0 CSV file. */
export function DownloadFocusButton({ query }: { query: CostExportQuery }) {
  const download = useDownloadCostExport();
  return (
    <div className="download-focus">
      <Button
        variant="outline-primary"
        size="sm"
        disabled={download.isPending}
        onClick={() => download.mutate(query)}
      >
        {download.isPending ? (
          <Spinner animation="border" size="sm" role="status" className="me-2">
            <span className="visually-hidden">Downloading</span>
          </Spinner>
        ) : null}
        {downloadFocusText}
      </Button>
      {download.error ? (
        <span className="text-danger download-focus-error" role="alert">
          {describeDownloadError(download.error)}
        </span>
      ) : null}
    </div>
  );
}

import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import Button from 'react-bootstrap/Button';
import Table from 'react-bootstrap/Table';
import { ZodError } from 'zod';
import {
  backToPendingAutomationText,
  loadErrorText,
  noPendingAutomationText,
  noScheduledChangesHeading,
  noScheduledChangesText,
  notAvailableText,
  scheduleForText,
  scheduleLoadFailedAdviceText,
  scheduleLoadFailedHeading,
} from '@cloudtrim/contracts/messages';
import { pageSize } from '@cloudtrim/contracts/paging';
import { getLastPathSegment } from '@cloudtrim/contracts/resources';
import type { ScheduledChange } from '@cloudtrim/contracts/schedule';
import { DataLoading } from '../../../components/data-loading';
import { PageHeading } from '../../../components/page-heading';
import { Pagination } from '../../../components/pagination';
import { clampPage, getPageCount } from '../../../components/pagination-pages';
import { ApiError } from '../../../lib/api-client';
import { formatUtcDateTime } from '../../../lib/format-date-time';
import { useSchedule } from '../api/get-schedule';
import '../../../components/data-views.css';

// The detail view lives in the URL, so it can be opened directly and the browser's back button works.
const resourceParam = 'resourceId';

// SPEC §8: the status text, else the message, else 'Unknown error occurred'. An answer of neither shape
// SPEC allows has no message worth showing (a validator's dump), so it is the unknown error.
function describeScheduleError(error: Error): string {
  if (error instanceof ApiError) return loadErrorText(error.statusText || error.message);
  return loadErrorText(error instanceof ZodError ? undefined : error.message);
}

function ScheduleLoadFailure({ error }: { error: Error }) {
  return (
    <div className="data-panel p-3" role="alert">
      <h2 className="h5">{scheduleLoadFailedHeading}</h2>
      <p className="mb-1">{describeScheduleError(error)}</p>
      <p className="mb-0 text-body-secondary">{scheduleLoadFailedAdviceText}</p>
    </div>
  );
}

function ScheduleList({
  page,
  onPageChange,
  onOpen,
}: {
  page: number;
  onPageChange: (page: number) => void;
  onOpen: (resourceId: string) => void;
}) {
  const schedule = useSchedule();
  if (schedule.isPending) return <DataLoading label="Loading pending automation" />;
  if (schedule.isError) return <ScheduleLoadFailure error={schedule.error} />;
  const changes = schedule.data;
  if (changes.length === 0) {
    return (
      <div className="data-panel">
        <p className="data-empty">{noPendingAutomationText}</p>
      </div>
    );
  }
  // The list may have shrunk since the page was chosen (a change applied meanwhile).
  const currentPage = clampPage(page, getPageCount(changes.length, pageSize));
  const pageChanges = changes.slice((currentPage - 1) * pageSize, currentPage * pageSize);
  return (
    <>
      <div className="data-panel">
        <Table responsive hover className="data-table">
          <thead>
            <tr>
              <th scope="col">RESOURCE</th>
              <th scope="col">SCHEDULED TIME</th>
              <th scope="col">NEW SIZE</th>
            </tr>
          </thead>
          <tbody>
            {pageChanges.map((change) => (
              <tr key={change.Id}>
                <td>
                  <button
                    type="button"
                    className="link-button"
                    title={change.ResourceId}
                    onClick={() => onOpen(change.ResourceId)}
                  >
                    {change.FriendlyName}
                  </button>
                </td>
                <td className="text-nowrap">{formatUtcDateTime(change.ChangeDateTime)}</td>
                <td>{change.NewSize}</td>
              </tr>
            ))}
          </tbody>
        </Table>
      </div>
      <Pagination
        label="Pending automation pages"
        currentPage={currentPage}
        totalEntries={changes.length}
        onPageChange={onPageChange}
      />
    </>
  );
}

function ScheduleTable({ changes }: { changes: readonly ScheduledChange[] }) {
  return (
    <div className="data-panel">
      <Table responsive className="data-table">
        <thead>
          <tr>
            <th scope="col">SCHEDULED TIME</th>
            <th scope="col">NEW SIZE</th>
            <th scope="col">VERSION</th>
          </tr>
        </thead>
        <tbody>
          {changes.map((change) => (
            <tr key={change.Id}>
              <td className="text-nowrap">{formatUtcDateTime(change.ChangeDateTime)}</td>
              <td>{change.NewSize}</td>
              <td>{change.Version ?? notAvailableText}</td>
            </tr>
          ))}
        </tbody>
      </Table>
    </div>
  );
}

function ResourceSchedule({ resourceId, onBack }: { resourceId: string; onBack: () => void }) {
  const schedule = useSchedule(resourceId);
  // A view of its own, so it opens at the top like a screen (SPEC §9).
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [resourceId]);
  const name = schedule.data?.[0]?.FriendlyName ?? getLastPathSegment(resourceId);

  function renderBody() {
    if (schedule.isPending) return <DataLoading label="Loading the schedule" />;
    if (schedule.isError) return <ScheduleLoadFailure error={schedule.error} />;
    if (schedule.data.length === 0) {
      return (
        <div className="data-panel p-3">
          <h2 className="h5">{noScheduledChangesHeading}</h2>
          <p className="mb-0">{noScheduledChangesText}</p>
        </div>
      );
    }
    return <ScheduleTable changes={schedule.data} />;
  }

  return (
    <>
      <PageHeading title={`${scheduleForText} ${name}`} />
      <Button variant="outline-primary" size="sm" className="mb-3" onClick={onBack}>
        {backToPendingAutomationText}
      </Button>
      {renderBody()}
    </>
  );
}

/** SPEC's Pending Automation (/pending): the sizing schedule, 30 a page, and one resource's detail. */
export function PendingAutomation() {
  const [searchParams, setSearchParams] = useSearchParams();
  const [page, setPage] = useState(1);
  const resourceId = searchParams.get(resourceParam);

  if (resourceId) {
    return (
      <ResourceSchedule
        resourceId={resourceId}
        onBack={() => {
          // SPEC §4: back to the table, on page 1.
          setPage(1);
          setSearchParams({});
        }}
      />
    );
  }
  return (
    <>
      <PageHeading title="Pending Automation" />
      <ScheduleList
        page={page}
        onPageChange={setPage}
        onOpen={(id) => setSearchParams({ [resourceParam]: id })}
      />
    </>
  );
}

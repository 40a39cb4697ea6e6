import { useEffect, useState } from 'react';
import Table from 'react-bootstrap/Table';
import type { ActivityLogEntry } from '@cloudtrim/contracts/activity';
import {
  activityFetchErrorText,
  noRecentActivityText,
  notAvailableText,
} from '@cloudtrim/contracts/messages';
import { getLastPathSegment } from '@cloudtrim/contracts/resources';
import { formatUtcDateTime } from '../../../lib/format-date-time';
import { useActivityLog } from '../api/get-activity-log';
import { isNetworkFailure } from '../../../lib/load-failure';
import {
  countKnownActivityEntries,
  getActivityLogPageCount,
  isActivityLogPagerShown,
} from '../utils/activity-log-pages';
import { Pagination } from '../../../components/pagination';
import { DataLoading } from '../../../components/data-loading';
import '../../../components/data-views.css';

interface ActivityLogListProps {
  /** Shows only this resource's entries. */
  resourceId?: string;
}

function showText(value: string | null): string {
  return value || notAvailableText;
}

function ActivityLogRow({ entry }: { entry: ActivityLogEntry }) {
  return (
    <tr>
      <td>{showText(entry.ServiceName)}</td>
      <td title={entry.ResourceId ?? undefined}>
        {entry.ResourceId ? getLastPathSegment(entry.ResourceId) : notAvailableText}
      </td>
      <td className="cell-wrap">{showText(entry.LogText)}</td>
      <td className="text-nowrap">{formatUtcDateTime(entry.RowCreated)}</td>
    </tr>
  );
}

/**
 * SPEC's Recent Activity list: 30 entries a page from a log whose length the server does not tell.
 * Give it a `key` of the resource id so another resource starts again on page 1.
 */
export function ActivityLogList({ resourceId }: ActivityLogListProps) {
  const [page, setPage] = useState(1);
  const activityLog = useActivityLog(page, resourceId);

  useEffect(() => {
    if (activityLog.error) console.error(activityFetchErrorText, activityLog.error);
  }, [activityLog.error]);

  if (activityLog.isPending) {
    return <DataLoading label="Loading activity" />;
  }

  if (activityLog.isError) {
    return isNetworkFailure(activityLog.error) ? <p className="data-empty">{noRecentActivityText}</p> : null;
  }

  const entries = activityLog.data;
  return (
    <>
      <div className="data-panel">
        {entries.length === 0 ? (
          <p className="data-empty">{noRecentActivityText}</p>
        ) : (
          <Table responsive hover className="data-table">
            <thead>
              <tr>
                <th scope="col">SERVICE NAME</th>
                <th scope="col">RESOURCE</th>
                <th scope="col">ACTIVITY DETAILS</th>
                <th scope="col">CREATED</th>
              </tr>
            </thead>
            <tbody aria-busy={activityLog.isPlaceholderData}>
              {entries.map((entry, index) => (
                <ActivityLogRow key={`${entry.RowCreated ?? ''}-${index}`} entry={entry} />
              ))}
            </tbody>
          </Table>
        )}
      </div>
      {isActivityLogPagerShown(page, entries.length) ? (
        <Pagination
          label="Activity pages"
          currentPage={page}
          totalEntries={countKnownActivityEntries(page, entries.length)}
          pageCount={getActivityLogPageCount(page, entries.length)}
          onPageChange={setPage}
        />
      ) : null}
    </>
  );
}

import { useEffect, useState, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import Button from 'react-bootstrap/Button';
import {
  activityLogsForText,
  backToCloudResourcesText,
  cloudResourcesFetchErrorText,
  noCloudResourcesText,
} from '@cloudtrim/contracts/messages';
import { getLastPathSegment, type CloudResource } from '@cloudtrim/contracts/resources';
import { PageHeading } from '../../../components/page-heading';
import { prepareUtcDateTimeFormat } from '../../../lib/format-date-time';
import { isNetworkFailure } from '../../../lib/load-failure';
import { useCloudResources } from '../api/get-cloud-resources';
import { prepareResourceCollator } from '../utils/sort-cloud-resources';
import { CloudResourceTable } from './cloud-resource-table';
import { DataLoading } from '../../../components/data-loading';
import '../../../components/data-views.css';
import './cloud-resources.css';

// The logs view lives in the URL, so the browser's back button also returns to the table.
const resourceParam = 'resource';

/** Renders one resource's activity log; the route composes it from the activity feature. */
export type RenderActivityLog = (resourceId: string) => ReactNode;

interface ResourceActivityProps {
  resourceId: string;
  onBack: () => void;
  renderActivityLog: RenderActivityLog;
}

function ResourceActivity({ resourceId, onBack, renderActivityLog }: ResourceActivityProps) {
  // A view of its own, so it opens at the top like a screen (SPEC §9).
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [resourceId]);
  return (
    <>
      <PageHeading title={`${activityLogsForText} ${getLastPathSegment(resourceId)}`} />
      <Button variant="outline-primary" size="sm" className="mb-3" onClick={onBack}>
        {backToCloudResourcesText}
      </Button>
      {renderActivityLog(resourceId)}
    </>
  );
}

function CloudResourceList({
  page,
  onPageChange,
  onOpenLogs,
}: {
  page: number;
  onPageChange: (page: number) => void;
  onOpenLogs: (resource: CloudResource) => void;
}) {
  const cloudResources = useCloudResources();

  useEffect(() => {
    // The rows' LAST READ formatter and the collator that tells their groups apart take 10 to 20 ms
    // each to build the first time: built while the answer is on its way, each in a task of its own,
    // rather than in the rows' render.
    const timers = [
      setTimeout(() => prepareUtcDateTimeFormat({ isCompact: true })),
      setTimeout(prepareResourceCollator),
    ];
    return () => timers.forEach((timer) => clearTimeout(timer));
  }, []);

  useEffect(() => {
    if (cloudResources.error) console.error(cloudResourcesFetchErrorText, cloudResources.error);
  }, [cloudResources.error]);

  if (cloudResources.isPending) {
    return <DataLoading label="Loading cloud resources" />;
  }
  // SPEC §8: a failed load hides the list, unless the network failed, which reads as empty.
  if (cloudResources.isError && !isNetworkFailure(cloudResources.error)) return null;
  if (cloudResources.isError || cloudResources.data.length === 0) {
    return (
      <div className="data-panel">
        <p className="data-empty">{noCloudResourcesText}</p>
      </div>
    );
  }
  return (
    <CloudResourceTable
      resources={cloudResources.data}
      page={page}
      onPageChange={onPageChange}
      onOpenLogs={onOpenLogs}
    />
  );
}

export function CloudResources({ renderActivityLog }: { renderActivityLog: RenderActivityLog }) {
  const [searchParams, setSearchParams] = useSearchParams();
  const [page, setPage] = useState(1);
  const resourceId = searchParams.get(resourceParam);

  if (resourceId) {
    return (
      <ResourceActivity
        resourceId={resourceId}
        onBack={() => setSearchParams({})}
        renderActivityLog={renderActivityLog}
      />
    );
  }

  return (
    <>
      <PageHeading title="Cloud Resources" />
      <CloudResourceList
        page={page}
        onPageChange={setPage}
        onOpenLogs={(resource) => setSearchParams({ [resourceParam]: resource.ResourceId })}
      />
    </>
  );
}

import { startTransition, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import Table from 'react-bootstrap/Table';
import { pageSize } from '@cloudtrim/contracts/paging';
import { cloudResourceSaveErrorText } from '@cloudtrim/contracts/messages';
import type { CloudResource } from '@cloudtrim/contracts/resources';
import { Pagination } from '../../../components/pagination';
import { clampPage, getPageCount } from '../../../components/pagination-pages';
import { parseCloudResourcePage, type ListedCloudResources } from '../api/get-cloud-resources';
import { useIsReadOnly } from '../../../lib/my-role';
import { useSaveCloudResource } from '../api/save-cloud-resource';
import { yieldToMain } from '../../../lib/work-in-slices';
import { createCloudResourceRows } from '../utils/group-cloud-resources';
import {
  createResourceDraft,
  createSaveItem,
  hasLocalChange,
  type ResourceDraft,
} from '../utils/resource-draft';
import { CloudResourceRow, type SaveOutcome } from './cloud-resource-row';

// SPEC §9: 'Values Updated' and 'Error saving values' clear after 3 seconds.
const saveOutcomeMs = 3000;
const columnCount = 9;
export const activeHoursInUtcText = 'Active hours are in UTC.';
const activeHoursNoteId = 'cloud-resources-active-hours-note';
// Styling and laying out a page of rows, three form controls in each, is work the browser cannot
// split: done for the whole page in one frame (the first above all, its styles still cold), it was
// a long task. The page is shown a few rows a frame instead, top first; the pagination below them
// comes with the last, so nothing on screen moves as rows are added.
const rowsPerFrame = 10;

interface CloudResourceTableProps {
  /** The list in SPEC §2's order, as the query holds it (or an array in that order). */
  resources: Pick<ListedCloudResources, 'length' | 'slice'>;
  page: number;
  onPageChange: (page: number) => void;
  onOpenLogs: (resource: CloudResource) => void;
}

function useSaveOutcomes() {
  const [outcomes, setOutcomes] = useState<Readonly<Record<string, SaveOutcome>>>({});
  const timers = useRef(new Map<string, ReturnType<typeof setTimeout>>());

  useEffect(() => {
    const pendingTimers = timers.current;
    return () => pendingTimers.forEach((timer) => clearTimeout(timer));
  }, []);

  const showOutcome = useCallback((resourceId: string, outcome: SaveOutcome) => {
    clearTimeout(timers.current.get(resourceId));
    setOutcomes((current) => ({ ...current, [resourceId]: outcome }));
    timers.current.set(
      resourceId,
      setTimeout(() => {
        timers.current.delete(resourceId);
        setOutcomes(({ [resourceId]: _cleared, ...rest }) => rest);
      }, saveOutcomeMs),
    );
  }, []);

  return { outcomes, showOutcome };
}

/** How many of the page's `rowCount` rows to show: rowsPerFrame more after each frame, up to all. */
function useRowsShownSoFar(rowCount: number): number {
  const [shownCount, setShownCount] = useState(rowsPerFrame);
  const isComplete = shownCount >= rowCount;
  useEffect(() => {
    if (isComplete) return;
    let isCancelled = false;
    // The frame's callback runs before it paints; the task after it, once it has painted.
    const frame = requestAnimationFrame(() => {
      void yieldToMain().then(() => {
        if (!isCancelled) startTransition(() => setShownCount((count) => count + rowsPerFrame));
      });
    });
    return () => {
      isCancelled = true;
      cancelAnimationFrame(frame);
    };
  }, [isComplete, shownCount]);
  return shownCount;
}

export function CloudResourceTable({ resources, page, onPageChange, onOpenLogs }: CloudResourceTableProps) {
  const [drafts, setDrafts] = useState<Readonly<Record<string, ResourceDraft>>>({});
  const [savingIds, setSavingIds] = useState<ReadonlySet<string>>(new Set());
  const { outcomes, showOutcome } = useSaveOutcomes();
  const saveResource = useSaveCloudResource();
  const isReadOnly = useIsReadOnly();

  const currentPage = clampPage(page, getPageCount(resources.length, pageSize));
  // Only the page shown is checked in full here; the whole answer is checked just after it paints.
  const rows = useMemo(() => {
    const pageResources = parseCloudResourcePage(
      resources.slice((currentPage - 1) * pageSize, currentPage * pageSize),
    );
    return pageResources ? createCloudResourceRows(pageResources) : null;
  }, [resources, currentPage]);

  function onDraftChange(resource: CloudResource, draft: ResourceDraft) {
    setDrafts((current) => ({ ...current, [resource.ResourceId]: draft }));
  }

  function setSaving(resourceId: string, isSaving: boolean) {
    setSavingIds((current) => {
      const next = new Set(current);
      if (isSaving) next.add(resourceId);
      else next.delete(resourceId);
      return next;
    });
  }

  function onSave(resource: CloudResource) {
    const draft = drafts[resource.ResourceId];
    const item = draft ? createSaveItem(resource, draft) : null;
    if (!item) return;
    setSaving(resource.ResourceId, true);
    saveResource.mutate(item, {
      onSuccess: () => {
        setDrafts(({ [resource.ResourceId]: _saved, ...rest }) => rest);
        showOutcome(resource.ResourceId, 'saved');
      },
      onError: (error) => {
        console.error(cloudResourceSaveErrorText, error);
        showOutcome(resource.ResourceId, 'failed');
      },
      onSettled: () => setSaving(resource.ResourceId, false),
    });
  }

  const shownRowCount = useRowsShownSoFar(rows?.length ?? 0);

  // A page failing the contract is not shown; the whole answer's check, just after, reports it.
  if (!rows) return null;
  const shownRows = rows.slice(0, shownRowCount);
  const isPageComplete = shownRows.length === rows.length;

  return (
    <>
      <div className="data-panel">
        {/* Active hours are kept and acted on in UTC (the server's active-hours job); the headers keep
            SPEC's texts and say it on hover, this line says it to everyone. */}
        <p id={activeHoursNoteId} className="cloud-resource-table-note">
          {activeHoursInUtcText}
        </p>
        <Table responsive className="data-table cloud-resource-table">
          <thead>
            <tr>
              <th scope="col">RESOURCE NAME</th>
              <th scope="col">TYPE</th>
              <th scope="col">SUBSCRIPTION</th>
              <th scope="col">RESOURCE GROUP</th>
              <th scope="col">LAST READ</th>
              <th scope="col">AUTOMATED</th>
              <th scope="col" title={activeHoursInUtcText} aria-describedby={activeHoursNoteId}>
                HOURS START
              </th>
              <th scope="col" title={activeHoursInUtcText} aria-describedby={activeHoursNoteId}>
                HOURS END
              </th>
              <th scope="col">ACTION</th>
            </tr>
          </thead>
          <tbody>
            {shownRows.map((row) => {
              if (row.kind === 'divider') {
                return (
                  <tr key={row.key} className="group-divider">
                    <th scope="rowgroup" colSpan={columnCount}>
                      <span className="group-divider-tenant">{row.tenantName}</span>{' '}
                      <span className="group-divider-separator" aria-hidden="true">
                        ›
                      </span>{' '}
                      <span className="group-divider-group">{row.resourceGroup}</span>
                    </th>
                  </tr>
                );
              }
              const { resource } = row;
              const draft = drafts[resource.ResourceId] ?? createResourceDraft(resource);
              return (
                <CloudResourceRow
                  key={row.key}
                  resource={resource}
                  draft={draft}
                  hasChange={hasLocalChange(resource, draft)}
                  isSaving={savingIds.has(resource.ResourceId)}
                  isReadOnly={isReadOnly}
                  saveOutcome={outcomes[resource.ResourceId]}
                  onDraftChange={onDraftChange}
                  onSave={onSave}
                  onOpenLogs={onOpenLogs}
                />
              );
            })}
          </tbody>
        </Table>
      </div>
      {isPageComplete ? (
        <Pagination
          label="Cloud resource pages"
          currentPage={currentPage}
          totalEntries={resources.length}
          onPageChange={onPageChange}
        />
      ) : null}
    </>
  );
}

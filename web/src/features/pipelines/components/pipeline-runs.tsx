import { useId, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Modal from 'react-bootstrap/Modal';
import Spinner from 'react-bootstrap/Spinner';
import Table from 'react-bootstrap/Table';
import type { PipelineRun, PipelineSummary } from '@cloudtrim/contracts/pipelines';
import { pageSize } from '@cloudtrim/contracts/paging';
import { DataLoading } from '../../../components/data-loading';
import { Pagination } from '../../../components/pagination';
import { formatUtcDateTime } from '../../../lib/format-date-time';
import { describeLoadError } from '../../../lib/load-failure';
import { logListTableMediaQuery, useMediaQuery } from '../../../lib/use-media-query';
import { usePipelineRun } from '../api/get-pipeline-run';
import { usePipelineRuns } from '../api/get-pipeline-runs';
import { useRunPipeline } from '../api/run-pipeline';
import { formatSaving, noRunsText, runStateLabels } from '../utils/pipeline-text';
import { PipelineItems } from './pipeline-items';
import { TableScrollRegion } from './table-scroll-region';
import { useIsReadOnly } from '../../../lib/my-role';

function describeMode(run: Pick<PipelineRun, 'dryRun' | 'trigger'>): string {
  return `${run.dryRun ? 'Dry run' : 'Real run'}, ${run.trigger === 'manual' ? 'run now' : 'scheduled'}`;
}

function describeCounts(run: PipelineRun): string {
  return `${run.matched} matched · ${run.acted} acted · ${run.skipped} skipped · ${run.failed} failed`;
}

function RunDetails({ runId, onBack }: { runId: string; onBack: () => void }) {
  const run = usePipelineRun(runId);

  function renderBody() {
    if (run.isError) {
      return (
        <p className="data-error" role="alert">
          {describeLoadError(run.error)}
        </p>
      );
    }
    if (!run.data) return <DataLoading label="Loading the run" />;
    const { data } = run;
    return (
      <>
        <h3 className="h6">
          Run of {formatUtcDateTime(data.startedAt)} (version {data.version})
        </h3>
        <p className="mb-1">
          {describeMode(data)} · {runStateLabels[data.state]}
          {data.startedBy ? ` · started by ${data.startedBy}` : ''}
        </p>
        <p className="pipeline-run-counts">
          {describeCounts(data)} · {formatSaving(data.annualSaving)} a year
        </p>
        {data.items.length === 0 ? (
          <p className="data-empty">Nothing matched this run.</p>
        ) : (
          <PipelineItems items={data.items} label="Run items" />
        )}
      </>
    );
  }

  return (
    <>
      <Button variant="link" className="px-0 mb-2" onClick={onBack}>
        ← Back to the runs
      </Button>
      {renderBody()}
    </>
  );
}

function RunList({ pipelineId, onShowRun }: { pipelineId: string; onShowRun: (runId: string) => void }) {
  const [page, setPage] = useState(1);
  const runs = usePipelineRuns(pipelineId, (page - 1) * pageSize);
  const isTable = useMediaQuery(logListTableMediaQuery);

  if (runs.isError) {
    return (
      <p className="data-error" role="alert">
        {describeLoadError(runs.error)}
      </p>
    );
  }
  if (!runs.data) return <DataLoading label="Loading the runs" />;
  const { runs: shown, total } = runs.data;
  if (total === 0) return <p className="data-empty">{noRunsText}</p>;
  const detailsButton = (run: PipelineRun) => (
    <Button
      variant="outline-primary"
      size="sm"
      onClick={() => onShowRun(run.id)}
      aria-label={`Details of the run of ${formatUtcDateTime(run.startedAt)}`}
    >
      DETAILS
    </Button>
  );
  return (
    <>
      {isTable ? (
        <TableScrollRegion label="Runs">
          <Table size="sm" className="data-table">
            <caption className="visually-hidden">Runs</caption>
            <thead>
              <tr>
                <th scope="col">STARTED</th>
                <th scope="col">RUN</th>
                <th scope="col">STATE</th>
                <th scope="col" className="text-end">
                  MATCHED
                </th>
                <th scope="col" className="text-end">
                  ACTED
                </th>
                <th scope="col" className="text-end">
                  SKIPPED
                </th>
                <th scope="col" className="text-end">
                  FAILED
                </th>
                <th scope="col" className="text-end">
                  ANNUAL SAVING
                </th>
                <th scope="col">
                  <span className="visually-hidden">DETAILS</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {shown.map((run) => (
                <tr key={run.id}>
                  <th scope="row" className="text-nowrap">
                    {formatUtcDateTime(run.startedAt)}
                  </th>
                  <td>{describeMode(run)}</td>
                  <td>{runStateLabels[run.state]}</td>
                  <td className="text-end">{run.matched}</td>
                  <td className="text-end">{run.acted}</td>
                  <td className="text-end">{run.skipped}</td>
                  <td className="text-end">{run.failed}</td>
                  <td className="text-end text-nowrap">{formatSaving(run.annualSaving)}</td>
                  <td>{detailsButton(run)}</td>
                </tr>
              ))}
            </tbody>
          </Table>
        </TableScrollRegion>
      ) : (
        <div className="data-card-list" role="list" aria-label="Runs">
          {shown.map((run) => (
            <div role="listitem" key={run.id}>
              <Card className="data-card">
                <Card.Body>
                  <Card.Title as="h3">{formatUtcDateTime(run.startedAt)}</Card.Title>
                  <dl className="data-card-fields">
                    <dt>RUN</dt>
                    <dd>{describeMode(run)}</dd>
                    <dt>STATE</dt>
                    <dd>{runStateLabels[run.state]}</dd>
                    <dt>RESOURCES</dt>
                    <dd>{describeCounts(run)}</dd>
                    <dt>ANNUAL SAVING</dt>
                    <dd>{formatSaving(run.annualSaving)}</dd>
                  </dl>
                  <div className="mt-2">{detailsButton(run)}</div>
                </Card.Body>
              </Card>
            </div>
          ))}
        </div>
      )}
      {total > pageSize ? (
        <Pagination currentPage={page} totalEntries={total} onPageChange={setPage} label="Runs pages" />
      ) : null}
    </>
  );
}

interface PipelineRunsProps {
  /** The pipeline whose runs are shown; null keeps the modal closed. */
  pipeline: PipelineSummary | null;
  onHide: () => void;
}

/** A pipeline's run history and each run's details, and running it now, dry or for real. */
export function PipelineRuns({ pipeline, onHide }: PipelineRunsProps) {
  const titleId = useId();
  const running = useRunPipeline();
  // A Viewer reads only: the history shows, but no run starts.
  const isReadOnly = useIsReadOnly();
  // The modal keeps naming the pipeline while it fades out after it was cleared.
  const [shown, setShown] = useState(pipeline);
  if (pipeline !== null && pipeline !== shown) setShown(pipeline);
  const [runId, setRunId] = useState<string | null>(null);
  const [isConfirmingRealRun, setIsConfirmingRealRun] = useState(false);

  function run(dryRun: boolean) {
    if (shown === null) return;
    setIsConfirmingRealRun(false);
    running.mutate({ id: shown.id, dryRun }, { onSuccess: (started) => setRunId(started.id) });
  }

  function onExited() {
    setRunId(null);
    setIsConfirmingRealRun(false);
    running.reset();
  }

  const spinner = <Spinner as="span" animation="border" size="sm" className="me-2" aria-hidden="true" />;
  return (
    <Modal
      show={pipeline !== null}
      onHide={onHide}
      onExited={onExited}
      aria-labelledby={titleId}
      size="xl"
      centered
    >
      <Modal.Header closeButton>
        <Modal.Title as="h2" id={titleId} className="h5">
          Runs of {shown?.name}
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <div className="pipeline-actions mb-3">
          <Button
            variant="outline-primary"
            size="sm"
            disabled={running.isPending || isReadOnly}
            onClick={() => run(true)}
          >
            {running.isPending && running.variables.dryRun ? spinner : null}
            DRY RUN NOW
          </Button>
          <Button
            variant="primary"
            size="sm"
            disabled={running.isPending || isConfirmingRealRun || isReadOnly}
            onClick={() => setIsConfirmingRealRun(true)}
          >
            {running.isPending && !running.variables.dryRun ? spinner : null}
            RUN NOW
          </Button>
        </div>
        {isConfirmingRealRun ? (
          <Alert variant="warning" className="pipeline-confirm">
            <p className="mb-2">
              Run {shown?.name} for real now? Its gates still hold: the blast radius, the opt-out tag, and
              approval of destructive actions.
            </p>
            <div className="pipeline-actions">
              <Button variant="outline-secondary" size="sm" onClick={() => setIsConfirmingRealRun(false)}>
                CANCEL
              </Button>
              <Button variant="danger" size="sm" onClick={() => run(false)}>
                RUN FOR REAL
              </Button>
            </div>
          </Alert>
        ) : null}
        {running.isError ? (
          <Alert variant="danger" role="alert">
            {running.error.message}
          </Alert>
        ) : null}
        {shown === null ? null : runId === null ? (
          <RunList pipelineId={shown.id} onShowRun={setRunId} />
        ) : (
          <RunDetails runId={runId} onBack={() => setRunId(null)} />
        )}
      </Modal.Body>
    </Modal>
  );
}

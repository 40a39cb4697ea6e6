import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Table from 'react-bootstrap/Table';
import type { PipelineSummary } from '@cloudtrim/contracts/pipelines';
import { pageSize } from '@cloudtrim/contracts/paging';
import { ListLoadState } from '../../../components/list-load-state';
import { Pagination } from '../../../components/pagination';
import { getPageCount } from '../../../components/pagination-pages';
import { logListTableMediaQuery, useMediaQuery } from '../../../lib/use-media-query';
import { useChangePipelineState } from '../api/change-pipeline-state';
import { useExportPipeline } from '../api/export-pipeline';
import { usePipelines } from '../api/get-pipelines';
import {
  describeAction,
  describeLastRun,
  describeSchedule,
  formatNextRun,
  noPipelinesText,
  pipelineStateLabels,
} from '../utils/pipeline-text';
import { TableScrollRegion } from './table-scroll-region';
import { useIsReadOnly } from '../../../lib/my-role';

export interface PipelineRowHandlers {
  onEdit: (pipeline: PipelineSummary) => void;
  onShowRuns: (pipeline: PipelineSummary) => void;
  onDelete: (pipeline: PipelineSummary) => void;
}

interface RowProps extends PipelineRowHandlers {
  pipeline: PipelineSummary;
  isBusy: boolean;
  onChangeState: (pipeline: PipelineSummary) => void;
  onExport: (pipeline: PipelineSummary) => void;
}

function PipelineState({ pipeline }: { pipeline: PipelineSummary }) {
  return (
    <Badge bg={pipeline.state === 'active' ? 'success' : 'secondary'}>
      {pipelineStateLabels[pipeline.state]}
    </Badge>
  );
}

function RowActions({ pipeline, isBusy, onEdit, onShowRuns, onChangeState, onExport, onDelete }: RowProps) {
  const { name } = pipeline;
  // A Viewer reads only: no pause, resume or delete.
  const isReadOnly = useIsReadOnly();
  return (
    <div className="pipeline-actions">
      <Button
        variant="outline-primary"
        size="sm"
        onClick={() => onEdit(pipeline)}
        aria-label={`Edit ${name}`}
      >
        EDIT
      </Button>
      <Button
        variant="outline-primary"
        size="sm"
        onClick={() => onShowRuns(pipeline)}
        aria-label={`Runs of ${name}`}
      >
        RUNS
      </Button>
      <Button
        variant="outline-secondary"
        size="sm"
        hidden={isReadOnly}
        disabled={isBusy}
        onClick={() => onChangeState(pipeline)}
        aria-label={`${pipeline.state === 'active' ? 'Pause' : 'Resume'} ${name}`}
      >
        {pipeline.state === 'active' ? 'PAUSE' : 'RESUME'}
      </Button>
      <Button
        variant="outline-secondary"
        size="sm"
        onClick={() => onExport(pipeline)}
        aria-label={`Export ${name} as YAML`}
      >
        EXPORT YAML
      </Button>
      <Button
        variant="outline-danger"
        size="sm"
        hidden={isReadOnly}
        onClick={() => onDelete(pipeline)}
        aria-label={`Delete ${name}`}
      >
        DELETE
      </Button>
    </div>
  );
}

function PipelineTableRow(props: RowProps) {
  const { pipeline } = props;
  return (
    <tr>
      <th scope="row" className="pipeline-name-cell">
        {pipeline.name}
      </th>
      <td className="cell-wrap">{pipeline.scopeSummary}</td>
      <td>{describeAction(pipeline.action)}</td>
      <td>{describeSchedule(pipeline.schedule)}</td>
      <td>{describeLastRun(pipeline.lastRun)}</td>
      <td>{formatNextRun(pipeline.nextRunAt, pipeline.schedule)}</td>
      <td>
        <PipelineState pipeline={pipeline} />
      </td>
      <td>
        <RowActions {...props} />
      </td>
    </tr>
  );
}

function PipelineCard(props: RowProps) {
  const { pipeline } = props;
  return (
    <Card className="data-card">
      <Card.Body>
        <Card.Title as="h3">
          {pipeline.name} <PipelineState pipeline={pipeline} />
        </Card.Title>
        <dl className="data-card-fields">
          <dt>SCOPE</dt>
          <dd>{pipeline.scopeSummary}</dd>
          <dt>ACTION</dt>
          <dd>{describeAction(pipeline.action)}</dd>
          <dt>SCHEDULE</dt>
          <dd>{describeSchedule(pipeline.schedule)}</dd>
          <dt>LAST RUN</dt>
          <dd>{describeLastRun(pipeline.lastRun)}</dd>
          <dt>NEXT RUN</dt>
          <dd>{formatNextRun(pipeline.nextRunAt, pipeline.schedule)}</dd>
        </dl>
        <div className="mt-2">
          <RowActions {...props} />
        </div>
      </Card.Body>
    </Card>
  );
}

/** The team's pipelines, a page at a time: a table on wide screens, cards on narrow ones. */
export function PipelineList(handlers: PipelineRowHandlers) {
  const [page, setPage] = useState(1);
  const pipelines = usePipelines((page - 1) * pageSize);
  const isTable = useMediaQuery(logListTableMediaQuery);
  const stateChange = useChangePipelineState();
  const download = useExportPipeline();
  const [actionError, setActionError] = useState<string | null>(null);
  // A page emptied by a deletion (or by a colleague's) gives way to the last page there is.
  const lastPage = Math.max(1, getPageCount(pipelines.data?.total ?? 0, pageSize));
  if (pipelines.data && !pipelines.isPlaceholderData && page > lastPage) setPage(lastPage);

  const rowProps = {
    ...handlers,
    onChangeState: (pipeline: PipelineSummary) => {
      setActionError(null);
      stateChange.mutate(
        { id: pipeline.id, change: pipeline.state === 'active' ? 'pause' : 'resume' },
        { onError: (error) => setActionError(error.message) },
      );
    },
    onExport: (pipeline: PipelineSummary) => {
      setActionError(null);
      download.mutate(
        { id: pipeline.id, name: pipeline.name },
        { onError: (error) => setActionError(error.message) },
      );
    },
  };
  const isBusy = (pipeline: PipelineSummary) =>
    stateChange.isPending && stateChange.variables.id === pipeline.id;

  function renderList() {
    if (pipelines.isError || !pipelines.data) {
      return (
        <ListLoadState query={pipelines} emptyText={noPipelinesText} loadingLabel="Loading the pipelines" />
      );
    }
    const { pipelines: shown, total } = pipelines.data;
    if (total === 0) return <p className="data-empty">{noPipelinesText}</p>;
    return (
      <>
        {isTable ? (
          <TableScrollRegion label="Pipelines">
            <Table className="data-table">
              <caption className="visually-hidden">Pipelines</caption>
              <thead>
                <tr>
                  <th scope="col">NAME</th>
                  <th scope="col">SCOPE</th>
                  <th scope="col">ACTION</th>
                  <th scope="col">SCHEDULE</th>
                  <th scope="col">LAST RUN</th>
                  <th scope="col">NEXT RUN</th>
                  <th scope="col">STATE</th>
                  <th scope="col">
                    <span className="visually-hidden">ACTIONS</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {shown.map((pipeline) => (
                  <PipelineTableRow
                    key={pipeline.id}
                    pipeline={pipeline}
                    isBusy={isBusy(pipeline)}
                    {...rowProps}
                  />
                ))}
              </tbody>
            </Table>
          </TableScrollRegion>
        ) : (
          <div className="data-card-list p-2" role="list" aria-label="Pipelines">
            {shown.map((pipeline) => (
              <div role="listitem" key={pipeline.id}>
                <PipelineCard pipeline={pipeline} isBusy={isBusy(pipeline)} {...rowProps} />
              </div>
            ))}
          </div>
        )}
        {total > pageSize ? (
          <Pagination
            currentPage={page}
            totalEntries={total}
            onPageChange={setPage}
            label="Pipelines pages"
          />
        ) : null}
      </>
    );
  }

  return (
    <>
      {actionError ? (
        <Alert variant="danger" dismissible onClose={() => setActionError(null)} className="m-2">
          {actionError}
        </Alert>
      ) : null}
      {renderList()}
    </>
  );
}

import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import type { PipelineSummary } from '@cloudtrim/contracts/pipelines';
import { PageHeading } from '../../../components/page-heading';
import { describeImportError, useImportPipeline } from '../api/import-pipeline';
import { pipelinesTitleText } from '../utils/pipeline-text';
import { DeletePipelineDialog } from './delete-pipeline-dialog';
import { useIsReadOnly } from '../../../lib/my-role';
import { ImportPipelineButton } from './import-pipeline-button';
import { PipelineApprovals } from './pipeline-approvals';
import { PipelineBuilder } from './pipeline-builder';
import type { PipelineTenantOption } from './pipeline-builder-form';
import { PipelineList } from './pipeline-list';
import { PipelineRuns } from './pipeline-runs';
import '../../../components/data-views.css';
import './pipelines.css';

export type { PipelineTenantOption } from './pipeline-builder-form';

function PipelineSection({ title, children }: { title: string; children: React.ReactNode }) {
  const headingId = `pipeline-section-${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
  return (
    <section className="pipeline-section" aria-labelledby={headingId}>
      <h2 id={headingId} className="pipeline-section-title">
        {title}
      </h2>
      <div className="data-panel">{children}</div>
    </section>
  );
}

// The pipeline stays named while the builder fades out after it was closed.
interface Building {
  isShown: boolean;
  pipelineId: string | null;
}

interface PipelinesProps {
  /** The team's tenants, to choose a pipeline's scope from (the route reads them from the tenants feature). */
  tenants: readonly PipelineTenantOption[];
}

/** /automation: the approvals waiting for the user, the team's pipelines, their builder and runs. */
export function Pipelines({ tenants }: PipelinesProps) {
  const [building, setBuilding] = useState<Building>({ isShown: false, pipelineId: null });
  const [runsOf, setRunsOf] = useState<PipelineSummary | null>(null);
  const [deleting, setDeleting] = useState<PipelineSummary | null>(null);
  const importing = useImportPipeline();
  // A Viewer reads only: no new pipeline, no import.
  const isReadOnly = useIsReadOnly();

  return (
    <>
      <PageHeading
        title={pipelinesTitleText}
        actions={
          isReadOnly ? null : (
            <div className="pipeline-actions">
              <ImportPipelineButton
                isPending={importing.isPending}
                onChoose={(yaml) => importing.mutate(yaml)}
              />
              <Button
                variant="primary"
                size="sm"
                onClick={() => setBuilding({ isShown: true, pipelineId: null })}
              >
                NEW PIPELINE
              </Button>
            </div>
          )
        }
      />
      {importing.isError ? (
        <Alert variant="danger" dismissible onClose={() => importing.reset()} role="alert">
          The file was not imported. {describeImportError(importing.error)}
        </Alert>
      ) : null}
      {importing.isSuccess ? (
        <Alert variant="success" dismissible onClose={() => importing.reset()}>
          Imported the pipeline {importing.data.name}.
        </Alert>
      ) : null}
      <PipelineSection title="Waiting for your approval">
        <PipelineApprovals />
      </PipelineSection>
      <PipelineSection title="Pipelines">
        <PipelineList
          onEdit={(pipeline) => setBuilding({ isShown: true, pipelineId: pipeline.id })}
          onShowRuns={setRunsOf}
          onDelete={setDeleting}
        />
      </PipelineSection>
      <PipelineBuilder
        isShown={building.isShown}
        pipelineId={building.pipelineId}
        tenants={tenants}
        onHide={() => setBuilding({ ...building, isShown: false })}
        onSaved={() => setBuilding({ ...building, isShown: false })}
      />
      <PipelineRuns pipeline={runsOf} onHide={() => setRunsOf(null)} />
      <DeletePipelineDialog
        pipeline={deleting}
        onCancel={() => setDeleting(null)}
        onDeleted={() => setDeleting(null)}
      />
    </>
  );
}

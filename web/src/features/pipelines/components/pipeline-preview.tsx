import { useId } from 'react';
import Alert from 'react-bootstrap/Alert';
import type { PipelineDefinitionRequest } from '@cloudtrim/contracts/pipelines';
import { DataLoading } from '../../../components/data-loading';
import { usePipelinePreview } from '../api/preview-pipeline';
import { formatSaving, noMatchesText } from '../utils/pipeline-text';
import { PipelineItems } from './pipeline-items';

interface PipelinePreviewProps {
  /** The builder's definition once it passes the contract; null while it does not. */
  definition: PipelineDefinitionRequest | null;
  /** Why there is no definition yet: the contract's first message. */
  incompleteText: string | undefined;
}

/** The builder's live dry run: what the pipeline would match now, and what a run would do to each. */
export function PipelinePreview({ definition, incompleteText }: PipelinePreviewProps) {
  const titleId = useId();
  const preview = usePipelinePreview(definition);

  function renderBody() {
    if (definition === null) {
      return (
        <p className="text-body-secondary mb-0">
          The preview runs once the pipeline passes its checks{incompleteText ? `: ${incompleteText}` : '.'}
        </p>
      );
    }
    if (preview.isError) {
      return (
        <Alert variant="danger" className="mb-0" role="alert">
          {preview.error.message}
        </Alert>
      );
    }
    if (!preview.data) return <DataLoading label="Previewing the pipeline" />;
    const { matched, wouldAct, annualSaving, items } = preview.data;
    return (
      <>
        <p className="pipeline-preview-summary" aria-live="polite">
          <strong>{matched}</strong> matched · <strong>{wouldAct}</strong> would be acted on now ·{' '}
          <strong>{formatSaving(annualSaving)}</strong> a year
          {preview.isFetching ? <span className="visually-hidden"> (updating)</span> : null}
        </p>
        {items.length === 0 ? (
          <p className="data-empty">{noMatchesText}</p>
        ) : (
          <PipelineItems items={items} label="Preview" isCompact />
        )}
      </>
    );
  }

  return (
    <section className="pipeline-preview" aria-labelledby={titleId}>
      <h3 id={titleId} className="h6">
        Dry-run preview (nothing is written to Azure)
      </h3>
      {renderBody()}
    </section>
  );
}

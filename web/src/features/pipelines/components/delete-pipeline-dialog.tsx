import type { PipelineSummary } from '@cloudtrim/contracts/pipelines';
import { ConfirmDeleteDialog } from '../../../components/confirm-delete-dialog';
import { useDeletePipeline } from '../api/delete-pipeline';

interface DeletePipelineDialogProps {
  /** The pipeline to confirm; null keeps the dialog closed. */
  pipeline: PipelineSummary | null;
  onCancel: () => void;
  onDeleted: () => void;
}

export function DeletePipelineDialog({ pipeline, onCancel, onDeleted }: DeletePipelineDialogProps) {
  const deletion = useDeletePipeline();
  return (
    <ConfirmDeleteDialog
      item={pipeline}
      title="Delete pipeline"
      confirmLabel="DELETE PIPELINE"
      describe={(shown) => (
        <>
          <p className="mb-2">
            Delete the pipeline <strong>{shown.name}</strong>?
          </p>
          <p className="mb-0 text-body-secondary small">
            It stops running, and its actions waiting for approval are dropped. What it has already changed in
            Azure stays in the automation logs.
          </p>
        </>
      )}
      isPending={deletion.isPending}
      errorText={deletion.isError ? deletion.error.message : null}
      onCancel={onCancel}
      onConfirm={(confirmed) => deletion.mutate(confirmed.id, { onSuccess: onDeleted })}
      onExited={() => deletion.reset()}
    />
  );
}

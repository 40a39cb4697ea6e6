import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Spinner from 'react-bootstrap/Spinner';
import {
  approvalOwnProposalText,
  type ApprovalDecision,
  type CallerApproval,
} from '@cloudtrim/contracts/pipelines';
import { DataLoading } from '../../../components/data-loading';
import { formatUtcDateTime } from '../../../lib/format-date-time';
import { describeLoadError, isNetworkFailure } from '../../../lib/load-failure';
import { readSession } from '../../../lib/session';
import { useDecideApproval } from '../api/decide-approval';
import { useApprovals } from '../api/get-approvals';
import { describeAction, formatSaving, noApprovalsText } from '../utils/pipeline-text';
import { PipelineItems } from './pipeline-items';

interface ApprovalCardProps {
  approval: CallerApproval;
  /** The signed-in user's address: their own proposal needs a colleague. */
  userEmail: string;
}

function ApprovalCard({ approval, userEmail }: ApprovalCardProps) {
  const deciding = useDecideApproval();
  const [decision, setDecision] = useState<ApprovalDecision | null>(null);
  const isOwn = approval.proposedBy.toLowerCase() === userEmail.toLowerCase();
  const isApproved = approval.state === 'approved';
  // Why the user may not approve: the server's sentence (role, own proposal, joined after it).
  const refusal = isApproved ? null : (approval.refusal ?? (isOwn ? approvalOwnProposalText : null));
  const count = approval.items.length;

  function decide(next: ApprovalDecision) {
    setDecision(next);
    deciding.mutate({ id: approval.id, decision: next });
  }

  const spinner = <Spinner as="span" animation="border" size="sm" className="me-2" aria-hidden="true" />;
  return (
    <Card className="data-card">
      <Card.Body>
        <Card.Title as="h3">
          {approval.pipelineName}: {describeAction(approval.action)} {count}{' '}
          {count === 1 ? 'resource' : 'resources'}
        </Card.Title>
        <dl className="data-card-fields">
          <dt>PROPOSED BY</dt>
          <dd>
            {approval.proposedBy}, {formatUtcDateTime(approval.proposedAt)}
          </dd>
          <dt>RUNS AFTER</dt>
          <dd>
            {formatUtcDateTime(approval.runsAfter)}
            {isApproved
              ? `, approved by ${approval.decidedBy ?? 'a colleague'}: an Owner or Approver may still reject it`
              : ', once approved'}
          </dd>
          <dt>ANNUAL SAVING</dt>
          <dd>{formatSaving(approval.annualSaving)}</dd>
        </dl>
        <details className="mt-2">
          <summary>The resources</summary>
          <PipelineItems items={approval.items} label={`Resources of ${approval.pipelineName}`} />
        </details>
        {refusal ? <p className="text-body-secondary small mt-2 mb-0">{refusal}</p> : null}
        {deciding.isError ? (
          <Alert variant="danger" className="mt-2 mb-0" role="alert">
            {deciding.error.message}
          </Alert>
        ) : null}
        <div className="pipeline-actions mt-2">
          {isApproved ? null : (
            <Button
              variant="primary"
              size="sm"
              disabled={refusal !== null || deciding.isPending}
              onClick={() => decide('approve')}
              aria-label={`Approve ${approval.pipelineName}`}
            >
              {deciding.isPending && decision === 'approve' ? spinner : null}
              APPROVE
            </Button>
          )}
          <Button
            variant="outline-danger"
            size="sm"
            disabled={!approval.mayReject || deciding.isPending}
            onClick={() => decide('reject')}
            aria-label={`Reject ${approval.pipelineName}`}
          >
            {deciding.isPending && decision === 'reject' ? spinner : null}
            REJECT
          </Button>
        </div>
      </Card.Body>
    </Card>
  );
}

/**
 * The pipeline actions waiting for an approval (a colleague proposed them), each saying why the user
 * may not approve it, and those approved but not yet run, which an Owner or Approver may still reject.
 */
export function PipelineApprovals() {
  const approvals = useApprovals();
  const userEmail = readSession()?.email ?? '';

  if (approvals.isError) {
    if (isNetworkFailure(approvals.error)) return <p className="data-empty">{noApprovalsText}</p>;
    return (
      <p className="data-error" role="alert">
        {describeLoadError(approvals.error)}
      </p>
    );
  }
  if (!approvals.data) return <DataLoading label="Loading the approvals" />;
  const waiting = approvals.data.approvals.filter(
    (approval) => approval.state === 'waiting' || approval.state === 'approved',
  );
  if (waiting.length === 0) return <p className="data-empty">{noApprovalsText}</p>;
  return (
    <div className="data-card-list p-2" role="list" aria-label="Approvals">
      {waiting.map((approval) => (
        <div role="listitem" key={approval.id}>
          <ApprovalCard approval={approval} userEmail={userEmail} />
        </div>
      ))}
    </div>
  );
}

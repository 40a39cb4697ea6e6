import { viewerReadOnlyText } from '@cloudtrim/contracts/team';
import { useId, useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { FieldError } from '../../../components/field-error';
import { DataLoading } from '../../../components/data-loading';
import { ApiError } from '../../../lib/api-client';
import { describeLoadError } from '../../../lib/load-failure';
import { useIsReadOnly } from '../../../lib/my-role';
import { useSecurityFinding } from '../api/get-security-finding';
import { useMuteFinding } from '../api/mute-finding';
import {
  describeMute,
  readMuteRange,
  severityLabels,
  severityTextColors,
  severityVariants,
  statusLabels,
  validateMuteDraft,
} from '../utils/security-text';

interface FindingDetailModalProps {
  findingId: string | undefined;
  onHide: () => void;
  now?: () => Date;
}

function readServerErrors(error: unknown): Partial<Record<'Reason' | 'Until' | 'form', string>> {
  if (error instanceof ApiError) {
    const body = error.body as { field?: string; message?: string } | undefined;
    if (body?.field === 'Reason' || body?.field === 'Until') return { [body.field]: body.message };
    return { form: body?.message ?? error.message };
  }
  return error ? { form: 'The mute could not be saved. Try again.' } : {};
}

/** A finding with its evidence, remediation, history and mute. */
export function FindingDetailModal({ findingId, onHide, now = () => new Date() }: FindingDetailModalProps) {
  const titleId = useId();
  const finding = useSecurityFinding(findingId);
  const mutation = useMuteFinding();
  // A Viewer reads only: the mute is shown, never offered.
  const isReadOnly = useIsReadOnly();
  const range = readMuteRange(now());
  const [draft, setDraft] = useState({ reason: '', until: range.suggested });
  const [errors, setErrors] = useState<Partial<Record<'Reason' | 'Until' | 'form', string>>>({});

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!findingId) return;
    const found = validateMuteDraft(draft, now());
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    mutation.mutate(
      { id: findingId, request: { Reason: draft.reason.trim(), Until: draft.until } },
      {
        onSuccess: () => setDraft({ reason: '', until: range.suggested }),
        onError: (error) => setErrors(readServerErrors(error)),
      },
    );
  }

  function renderBody() {
    if (finding.isError)
      return (
        <p className="data-error" role="alert">
          {describeLoadError(finding.error)}
        </p>
      );
    if (!finding.data) return <DataLoading label="Loading the finding" />;
    const detail = finding.data;
    const mute = describeMute(detail);
    return (
      <>
        <p>
          <Badge bg={severityVariants[detail.Severity]} text={severityTextColors[detail.Severity]}>
            {severityLabels[detail.Severity]}
          </Badge>{' '}
          <Badge bg="light" text="dark">
            {statusLabels[detail.Status]}
          </Badge>{' '}
          <span className="text-body-secondary small">
            {detail.Cis ? `CIS Azure 2.0 · ${detail.Cis}` : 'No CIS Azure 2.0 control'}
          </span>
        </p>
        <dl className="data-card-fields">
          <dt>RESOURCE</dt>
          <dd className="cell-wrap">
            {detail.ResourceName}
            <br />
            <code className="small">{detail.ResourceId}</code>
          </dd>
          <dt>EVIDENCE</dt>
          <dd className="cell-wrap">{detail.Evidence}</dd>
          <dt>REMEDIATION</dt>
          <dd className="cell-wrap">
            {detail.Remediation.Text}
            <pre className="security-command">
              <code>{detail.Remediation.Command}</code>
            </pre>
          </dd>
          <dt>FIRST SEEN</dt>
          <dd>{new Date(detail.FirstSeen).toLocaleString()}</dd>
          <dt>LAST SEEN</dt>
          <dd>{new Date(detail.LastSeen).toLocaleString()}</dd>
          {detail.ResolvedAt ? (
            <>
              <dt>RESOLVED</dt>
              <dd>{new Date(detail.ResolvedAt).toLocaleString()}</dd>
            </>
          ) : null}
        </dl>
        <h3 className="h6 mt-3">History</h3>
        <ol className="security-history">
          {detail.History.map((entry, index) => (
            <li key={`${entry.At}-${index}`}>
              {new Date(entry.At).toLocaleString()}: {entry.Kind}
              {entry.By ? ` by ${entry.By}` : ''}
              {entry.Note ? ` (${entry.Note})` : ''}
            </li>
          ))}
        </ol>
        <h3 className="h6 mt-3">Mute</h3>
        {mute ? (
          <div className="d-flex gap-2 align-items-center flex-wrap">
            <span>{mute}</span>
            {detail.Mute?.RuleId || isReadOnly ? null : (
              <Button
                variant="outline-primary"
                size="sm"
                disabled={mutation.isPending}
                onClick={() => mutation.mutate({ id: detail.Id, request: null })}
              >
                UNMUTE
              </Button>
            )}
          </div>
        ) : isReadOnly ? (
          <p className="text-body-secondary small">Not muted. {viewerReadOnlyText}</p>
        ) : (
          <Form noValidate onSubmit={onSubmit}>
            {errors.form ? <Alert variant="danger">{errors.form}</Alert> : null}
            <Form.Group className="mb-2" controlId={`${titleId}-reason`}>
              <Form.Label>Reason</Form.Label>
              <Form.Control
                as="textarea"
                rows={2}
                maxLength={500}
                value={draft.reason}
                isInvalid={Boolean(errors.Reason)}
                onChange={(event) => setDraft({ ...draft, reason: event.target.value })}
              />
              <FieldError message={errors.Reason} />
            </Form.Group>
            <Form.Group className="mb-2" controlId={`${titleId}-until`}>
              <Form.Label>Until</Form.Label>
              <Form.Control
                type="date"
                min={range.min}
                max={range.max}
                value={draft.until}
                isInvalid={Boolean(errors.Until)}
                onChange={(event) => setDraft({ ...draft, until: event.target.value })}
              />
              <FieldError message={errors.Until} />
            </Form.Group>
            <Button type="submit" size="sm" disabled={mutation.isPending}>
              MUTE
            </Button>
          </Form>
        )}
      </>
    );
  }

  return (
    <Modal show={Boolean(findingId)} onHide={onHide} aria-labelledby={titleId} size="lg" centered>
      <Modal.Header closeButton>
        <Modal.Title as="h2" id={titleId} className="h5">
          {finding.data?.Title ?? 'Finding'}
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>{renderBody()}</Modal.Body>
    </Modal>
  );
}

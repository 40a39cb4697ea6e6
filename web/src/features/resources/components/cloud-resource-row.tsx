import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Spinner from 'react-bootstrap/Spinner';
import { notAvailableText, resourceSavedText, resourceSaveFailedText } from '@cloudtrim/contracts/messages';
import {
  activeAutomatedOptions,
  getLastPathSegment,
  type CloudResource,
} from '@cloudtrim/contracts/resources';
import { formatUtcDateTime } from '../../../lib/format-date-time';
import { parseHour, type ResourceDraft } from '../utils/resource-draft';

export type SaveOutcome = 'saved' | 'failed';

interface CloudResourceRowProps {
  resource: CloudResource;
  draft: ResourceDraft;
  hasChange: boolean;
  isSaving: boolean;
  /** A Viewer reads the row's settings but cannot change them (the server refuses it). */
  isReadOnly: boolean;
  saveOutcome: SaveOutcome | undefined;
  onDraftChange: (resource: CloudResource, draft: ResourceDraft) => void;
  onSave: (resource: CloudResource) => void;
  onOpenLogs: (resource: CloudResource) => void;
}

interface HourInputProps {
  label: string;
  value: string;
  /** An empty hour is only wrong once the row is being saved. */
  isRequired: boolean;
  isDisabled: boolean;
  onChange: (value: string) => void;
}

function HourInput({ label, value, isRequired, isDisabled, onChange }: HourInputProps) {
  return (
    <Form.Control
      type="number"
      size="sm"
      min={0}
      max={23}
      step={1}
      inputMode="numeric"
      className="hour-input"
      aria-label={label}
      value={value}
      disabled={isDisabled}
      isInvalid={(isRequired || value.trim() !== '') && parseHour(value) === null}
      onChange={(event) => onChange(event.target.value)}
    />
  );
}

export function CloudResourceRow({
  resource,
  draft,
  hasChange,
  isSaving,
  isReadOnly,
  saveOutcome,
  onDraftChange,
  onSave,
  onOpenLogs,
}: CloudResourceRowProps) {
  const name = getLastPathSegment(resource.ResourceId);
  const canSave = parseHour(draft.activeHoursStart) !== null && parseHour(draft.activeHoursEnd) !== null;

  return (
    <tr>
      <td className="resource-name-cell">
        <button
          type="button"
          className="link-button"
          title={resource.ResourceId}
          onClick={() => onOpenLogs(resource)}
        >
          {name}
        </button>
      </td>
      <td title={resource.ResourceType}>{getLastPathSegment(resource.ResourceType)}</td>
      <td>{resource.SubscriptionName || notAvailableText}</td>
      <td>{resource.ResourceGroup || notAvailableText}</td>
      <td className="last-read-cell">{formatUtcDateTime(resource.LastRead, { isCompact: true })}</td>
      <td>
        <Form.Select
          size="sm"
          className="automated-select"
          aria-label={`Automated for ${name}`}
          value={draft.automated}
          disabled={isReadOnly}
          onChange={(event) => onDraftChange(resource, { ...draft, automated: event.target.value })}
        >
          {activeAutomatedOptions.map((option) => (
            <option key={option.value} value={String(option.value)}>
              {option.label}
            </option>
          ))}
        </Form.Select>
      </td>
      <td>
        <HourInput
          label={`Hours start for ${name}`}
          value={draft.activeHoursStart}
          isRequired={hasChange}
          isDisabled={isReadOnly}
          onChange={(activeHoursStart) => onDraftChange(resource, { ...draft, activeHoursStart })}
        />
      </td>
      <td>
        <HourInput
          label={`Hours end for ${name}`}
          value={draft.activeHoursEnd}
          isRequired={hasChange}
          isDisabled={isReadOnly}
          onChange={(activeHoursEnd) => onDraftChange(resource, { ...draft, activeHoursEnd })}
        />
      </td>
      <td className="action-cell">
        <div className="action-cell-content">
          {hasChange && !isReadOnly ? (
            <Button
              size="sm"
              aria-label={`Save ${name}`}
              disabled={!canSave || isSaving}
              onClick={() => onSave(resource)}
            >
              {isSaving ? (
                <Spinner as="span" animation="border" size="sm" className="me-1" aria-hidden="true" />
              ) : null}
              Save
            </Button>
          ) : null}
          {saveOutcome ? (
            <span
              role="status"
              className={saveOutcome === 'saved' ? 'save-outcome text-success' : 'save-outcome text-danger'}
            >
              {saveOutcome === 'saved' ? resourceSavedText : resourceSaveFailedText}
            </span>
          ) : null}
        </div>
      </td>
    </tr>
  );
}

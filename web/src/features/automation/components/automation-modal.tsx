import { useEffect, useId, useRef, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import Spinner from 'react-bootstrap/Spinner';
import {
  automationOptions,
  automationValues,
  formatMaintenanceWindow,
  maintenanceWindowHours,
  type AutomationValue,
} from '@cloudtrim/contracts/automation';
import { automationUpdatedText, automationUpdateFailedText } from '@cloudtrim/contracts/messages';
import type { AutomationResource } from '@cloudtrim/contracts/resources';
import { viewerReadOnlyText } from '@cloudtrim/contracts/team';
import { useUpdateResourceAutomation } from '../api/update-resource-automation';
import { useIsReadOnly } from '../../../lib/my-role';
import '../../../components/data-views.css';

// SPEC §9: the modal closes 2.5 s after a successful update.
export const automationModalCloseDelayMs = 2500;

const noWindowValue = '';

interface AutomationModalProps {
  resource: AutomationResource;
  isShown: boolean;
  onHide: () => void;
  /** The query that lists the resource, refreshed after an update. */
  invalidates: readonly unknown[];
}

/** SPEC §5: No Change needs a maintenance time before it can be saved. */
export function canUpdateAutomation(automated: AutomationValue, maintenanceWindow: number | null): boolean {
  return !(automated === automationValues.noChange && maintenanceWindow === null);
}

/** The automation view's modal: the resource's automation state and its maintenance hour (UTC). */
export function AutomationModal({ resource, isShown, onHide, invalidates }: AutomationModalProps) {
  const titleId = useId();
  const fieldId = useId();
  const [automated, setAutomated] = useState<AutomationValue>(resource.Automated);
  const [maintenanceWindow, setMaintenanceWindow] = useState<number | null>(resource.MaintenanceWindow);
  const update = useUpdateResourceAutomation(invalidates);
  const { isSuccess } = update;
  // A Viewer sees the resource's automation but cannot change it (the server refuses it).
  const isReadOnly = useIsReadOnly();
  // The list behind refreshes after an update and may hand over a new onHide; the timer keeps running.
  const onHideRef = useRef(onHide);
  onHideRef.current = onHide;

  useEffect(() => {
    if (!isSuccess) return;
    const timer = window.setTimeout(() => onHideRef.current(), automationModalCloseDelayMs);
    return () => window.clearTimeout(timer);
  }, [isSuccess]);

  function onCancel() {
    setAutomated(resource.Automated);
    setMaintenanceWindow(resource.MaintenanceWindow);
    update.reset();
    onHide();
  }

  const isSaving = update.isPending;
  const isUpdateDisabled =
    isReadOnly || isSaving || isSuccess || !canUpdateAutomation(automated, maintenanceWindow);

  return (
    <Modal
      show={isShown}
      onHide={isSuccess ? onHide : onCancel}
      aria-labelledby={titleId}
      className="modal-stacked"
      backdropClassName="modal-backdrop-stacked"
    >
      <Form
        onSubmit={(event) => {
          event.preventDefault();
          if (isUpdateDisabled) return;
          update.mutate({ resourceId: resource.ResourceId, automated, maintenanceWindow });
        }}
      >
        <Modal.Header closeButton>
          <Modal.Title as="h2" id={titleId} title={resource.ResourceId} className="fs-4">
            Automation for {resource.ResourceName}
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <fieldset className="mb-3">
            <legend className="form-label fs-6">Automation</legend>
            {automationOptions.map((option) => (
              <Form.Check
                key={option.value}
                type="radio"
                id={`${fieldId}-automated-${option.value}`}
                name={`${fieldId}-automated`}
                label={option.label}
                checked={automated === option.value}
                disabled={isSaving || isReadOnly}
                onChange={() => {
                  setAutomated(option.value);
                  update.reset();
                }}
              />
            ))}
          </fieldset>
          <Form.Group controlId={`${fieldId}-window`}>
            <Form.Label>Maintenance window</Form.Label>
            <Form.Select
              value={maintenanceWindow === null ? noWindowValue : String(maintenanceWindow)}
              disabled={isSaving || isReadOnly}
              onChange={(event) => {
                const { value } = event.target;
                setMaintenanceWindow(value === noWindowValue ? null : Number(value));
                update.reset();
              }}
            >
              <option value={noWindowValue}>Choose a maintenance time</option>
              {maintenanceWindowHours.map((hour) => (
                <option key={hour} value={hour}>
                  {formatMaintenanceWindow(hour)}
                </option>
              ))}
            </Form.Select>
            <Form.Text>Without a window of its own, the resource uses the team's default window.</Form.Text>
          </Form.Group>
          {isReadOnly ? <p className="text-body-secondary small mt-3 mb-0">{viewerReadOnlyText}</p> : null}
          {isSuccess ? (
            <Alert variant="success" className="mt-3 mb-0" role="status">
              {automationUpdatedText}
            </Alert>
          ) : null}
          {update.isError ? (
            <Alert variant="danger" className="mt-3 mb-0">
              {automationUpdateFailedText}
            </Alert>
          ) : null}
        </Modal.Body>
        <Modal.Footer>
          <Button variant="outline-secondary" onClick={onCancel} disabled={isSaving}>
            Cancel
          </Button>
          <Button type="submit" disabled={isUpdateDisabled} hidden={isReadOnly}>
            {isSaving ? (
              <Spinner animation="border" size="sm" role="status">
                <span className="visually-hidden">Saving</span>
              </Spinner>
            ) : (
              'Update'
            )}
          </Button>
        </Modal.Footer>
      </Form>
    </Modal>
  );
}

import { useId } from 'react';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';
import { FieldError } from '../../../components/field-error';
import type { BuilderFormProps } from './pipeline-builder-form';

// The IANA zones the browser knows, offered as the time zone is typed.
const timeZones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];

export function ScheduleFields({ draft, errors, onChange }: Omit<BuilderFormProps, 'tenants'>) {
  const id = useId();
  return (
    <fieldset className="pipeline-fieldset">
      <legend className="h6">Schedule</legend>
      <Form.Check
        type="radio"
        id={`${id}-cron`}
        name={`${id}-schedule`}
        label="At the times of a cron expression, in a time zone"
        checked={!draft.isMaintenanceWindow}
        onChange={() => onChange({ isMaintenanceWindow: false })}
      />
      <Form.Check
        type="radio"
        id={`${id}-window`}
        name={`${id}-schedule`}
        label="In each resource’s maintenance window"
        checked={draft.isMaintenanceWindow}
        onChange={() => onChange({ isMaintenanceWindow: true })}
      />
      {draft.isMaintenanceWindow ? null : (
        <Row className="g-2 mt-1">
          <Col md={6}>
            <Form.Group controlId={`${id}-cron-expression`}>
              <Form.Label>Cron (minute hour day month weekday)</Form.Label>
              <Form.Control
                value={draft.cron}
                className="font-monospace"
                isInvalid={Boolean(errors['schedule.cron'])}
                onChange={(event) => onChange({ cron: event.target.value })}
              />
              <FieldError message={errors['schedule.cron']} />
            </Form.Group>
          </Col>
          <Col md={6}>
            <Form.Group controlId={`${id}-time-zone`}>
              <Form.Label>Time zone</Form.Label>
              <Form.Control
                value={draft.timeZone}
                list={`${id}-time-zones`}
                isInvalid={Boolean(errors['schedule.timeZone'])}
                onChange={(event) => onChange({ timeZone: event.target.value })}
              />
              <datalist id={`${id}-time-zones`}>
                {timeZones.map((timeZone) => (
                  <option key={timeZone} value={timeZone} />
                ))}
              </datalist>
              <FieldError message={errors['schedule.timeZone']} />
            </Form.Group>
          </Col>
        </Row>
      )}
      {errors.schedule ? <div className="invalid-feedback d-block">{errors.schedule}</div> : null}
    </fieldset>
  );
}

import { useEffect, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Spinner from 'react-bootstrap/Spinner';
import { formatMaintenanceWindow, maintenanceWindowHours } from '@cloudtrim/contracts/automation';
import { teamSettingsSchema, type TeamSettings } from '@cloudtrim/contracts/recommendations';
import { ApiError } from '../../../lib/api-client';
import { useIsReadOnly } from '../../../lib/my-role';
import { useTeamSettings } from '../api/get-team-settings';
import { useUpdateTeamSettings } from '../api/update-team-settings';

// SPEC §9: save and error messages clear after 3000 ms.
const messageClearMs = 3000;
const lookbackLimits = { min: 7, max: 90 } as const;
const savedText = 'Settings saved';

function describeSaveError(error: Error): string {
  return `Error: ${error instanceof ApiError ? error.statusText || error.message : error.message}`;
}

function SettingsFields({ settings }: { settings: TeamSettings }) {
  const [lookbackDays, setLookbackDays] = useState(String(settings.LookbackDays));
  const [defaultWindow, setDefaultWindow] = useState(settings.DefaultMaintenanceWindow);
  const update = useUpdateTeamSettings();
  // A Viewer sees the team's settings but cannot change them (the server refuses it).
  const isReadOnly = useIsReadOnly();
  const draft = teamSettingsSchema.safeParse({
    LookbackDays: Number(lookbackDays),
    DefaultMaintenanceWindow: defaultWindow,
  });
  const { isSuccess, isError, reset } = update;

  useEffect(() => {
    if (!isSuccess && !isError) return;
    const timer = window.setTimeout(reset, messageClearMs);
    return () => window.clearTimeout(timer);
  }, [isSuccess, isError, reset]);

  return (
    <Form
      className="team-settings-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (draft.success && !isReadOnly) update.mutate(draft.data);
      }}
    >
      <fieldset disabled={isReadOnly}>
        <Form.Group controlId="team-lookback-days">
          <Form.Label>Lookback (days)</Form.Label>
          <Form.Control
            type="number"
            inputMode="numeric"
            min={lookbackLimits.min}
            max={lookbackLimits.max}
            value={lookbackDays}
            isInvalid={!draft.success}
            onChange={(event) => setLookbackDays(event.target.value)}
          />
          <Form.Control.Feedback type="invalid">
            From {lookbackLimits.min} to {lookbackLimits.max} days.
          </Form.Control.Feedback>
        </Form.Group>
        <Form.Group controlId="team-default-window">
          <Form.Label>Default maintenance window</Form.Label>
          <Form.Select
            value={defaultWindow}
            onChange={(event) => setDefaultWindow(Number(event.target.value))}
          >
            {maintenanceWindowHours.map((hour) => (
              <option key={hour} value={hour}>
                {formatMaintenanceWindow(hour)}
              </option>
            ))}
          </Form.Select>
        </Form.Group>
      </fieldset>
      <div className="team-settings-actions" hidden={isReadOnly}>
        <Button type="submit" size="sm" disabled={!draft.success || update.isPending}>
          {update.isPending ? (
            <Spinner animation="border" size="sm" role="status">
              <span className="visually-hidden">Saving</span>
            </Spinner>
          ) : (
            'SAVE'
          )}
        </Button>
        {isSuccess ? (
          <span className="text-success" role="status">
            {savedText}
          </span>
        ) : null}
        {update.error ? (
          <span className="text-danger" role="alert">
            {describeSaveError(update.error)}
          </span>
        ) : null}
      </div>
    </Form>
  );
}

/** Beyond SPEC: how far back the engine looks and the window of resources that have none of their own. */
export function TeamSettingsForm() {
  const settings = useTeamSettings();
  if (settings.isPending) return null;
  if (settings.isError) {
    return (
      <p className="text-danger mb-0" role="alert">
        {describeSaveError(settings.error)}
      </p>
    );
  }
  return <SettingsFields key={JSON.stringify(settings.data)} settings={settings.data} />;
}

import Alert from 'react-bootstrap/Alert';
import Form from 'react-bootstrap/Form';
import Spinner from 'react-bootstrap/Spinner';
import type { AlertPreferences } from '@cloudtrim/contracts/alerts';
import { loadingText } from '@cloudtrim/contracts/messages';
import { describeLoadError } from '../../../lib/load-failure';
import { useAlertPreferences, useUpdateAlertPreferences } from '../api/alert-preferences';

const switches: { name: keyof AlertPreferences; label: string }[] = [
  { name: 'BudgetMails', label: 'A budget threshold is crossed' },
  { name: 'AnomalyMails', label: 'A cost anomaly is found' },
  { name: 'SecurityMails', label: 'A new critical or high security finding appears' },
];

/** /profile's "Mail me when": the kinds of alert mail, each saved as it is switched. */
export function MailPreferences() {
  const preferences = useAlertPreferences();
  const update = useUpdateAlertPreferences();

  if (preferences.isPending) {
    return (
      <div className="d-flex align-items-center gap-2 text-body-secondary" role="status">
        <Spinner animation="border" size="sm" aria-hidden="true" />
        {loadingText}
      </div>
    );
  }
  if (preferences.isError) {
    return (
      <Alert variant="danger" className="mb-0">
        {describeLoadError(preferences.error)}
      </Alert>
    );
  }
  const current = update.isPending && update.variables ? update.variables : preferences.data;
  return (
    <fieldset>
      <legend className="form-label fs-6">Mail me when</legend>
      {switches.map(({ name, label }) => (
        <Form.Check
          key={name}
          type="switch"
          id={`mail-preference-${name}`}
          label={label}
          checked={current[name] ?? false}
          disabled={update.isPending}
          onChange={(event) => update.mutate({ ...current, [name]: event.target.checked })}
        />
      ))}
      <p className="text-body-secondary small mt-2 mb-0">
        The alerts show in the top bar either way; these only choose what reaches your inbox.
      </p>
      {update.isError ? (
        <Alert variant="danger" className="mt-3 mb-0" role="alert">
          {describeLoadError(update.error)}
        </Alert>
      ) : null}
    </fieldset>
  );
}

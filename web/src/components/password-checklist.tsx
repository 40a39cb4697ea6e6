import { checkPasswordRules } from '@cloudtrim/contracts/password-rules';

interface PasswordChecklistProps {
  password: string;
  /** Lets the password field point at the list with aria-describedby. */
  id: string;
}

/** The live checklist of SPEC §5: one line per password rule, ticked as soon as it holds. */
export function PasswordChecklist({ password, id }: PasswordChecklistProps) {
  return (
    <ul id={id} className="list-unstyled small mt-2 mb-0" aria-label="Password rules">
      {checkPasswordRules(password).map((rule) => (
        <li key={rule.id} className={rule.isMet ? 'text-success' : 'text-body-secondary'}>
          <span aria-hidden="true" className="d-inline-block me-2" style={{ width: '1em' }}>
            {rule.isMet ? '✓' : '○'}
          </span>
          <span className="visually-hidden">{rule.isMet ? 'Met: ' : 'Not met: '}</span>
          {rule.label}
        </li>
      ))}
    </ul>
  );
}

import Card from 'react-bootstrap/Card';
import { taglineText } from '@cloudtrim/contracts/messages';
import { LinkButton } from '../../components/link-button';
import { paths } from '../../config/paths';

export function StartRoute() {
  return (
    <Card className="centered-card start-card">
      <Card.Body>
        <h1 className="start-card-title">{taglineText}</h1>
        <p className="start-card-lead">
          Connect your Azure tenants, watch every resource, and let right-sizing recommendations cut your
          cloud bill.
        </p>
        <div className="d-grid gap-2">
          <LinkButton to={paths.login} variant="primary" size="lg">
            LOG IN
          </LinkButton>
          <LinkButton to={paths.signUp} variant="outline-primary" size="lg">
            GET STARTED
          </LinkButton>
        </div>
      </Card.Body>
    </Card>
  );
}

import { Link } from 'react-router';
import Card from 'react-bootstrap/Card';
import { invalidUrlText } from '@cloudtrim/contracts/messages';
import { Brand } from '../../components/brand';
import { paths } from '../../config/paths';

export function NotFoundRoute() {
  return (
    <main className="centered-page">
      <div className="centered-column">
        <Brand className="centered-brand" />
        <Card className="centered-card">
          <Card.Body className="text-center">
            <h1 className="centered-card-title">{invalidUrlText}</h1>
            <Link to={paths.start}>Go to the homepage</Link>
          </Card.Body>
        </Card>
      </div>
    </main>
  );
}

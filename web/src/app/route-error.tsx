import { isRouteErrorResponse, useRouteError } from 'react-router';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import { Brand } from '../components/brand';
import { LinkButton } from '../components/link-button';
import { paths } from '../config/paths';

/** Shown when a screen fails to render, so the user keeps a way forward instead of a blank page. */
export function RouteError() {
  const error = useRouteError();
  console.error(error);
  const detail = isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : null;

  return (
    <main className="centered-page">
      <div className="centered-column">
        <Brand className="centered-brand" />
        <Card className="centered-card">
          <Card.Body className="text-center">
            <h1 className="h4 mb-3">Something went wrong</h1>
            <p className="text-body-secondary">
              This page could not be shown{detail ? ` (${detail})` : ''}. Reload the page or go back to the
              start.
            </p>
            <div className="d-flex gap-2 justify-content-center">
              <Button variant="primary" onClick={() => window.location.reload()}>
                Reload
              </Button>
              <LinkButton to={paths.start} variant="outline-secondary">
                Go to the homepage
              </LinkButton>
            </div>
          </Card.Body>
        </Card>
      </div>
    </main>
  );
}

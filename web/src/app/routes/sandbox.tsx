import { Link } from 'react-router';
import Container from 'react-bootstrap/Container';
import Navbar from 'react-bootstrap/Navbar';
import { Brand } from '../../components/brand';
import { LinkButton } from '../../components/link-button';
import { Sandbox } from '../../features/sandbox/components/sandbox';
import { paths } from '../../config/paths';

/** The public demo page: a plain top bar around the sandbox, no session needed. */
export function SandboxRoute() {
  return (
    <>
      <Navbar bg="white" className="border-bottom">
        <Container>
          <Navbar.Brand as={Link} to={paths.start}>
            <Brand />
          </Navbar.Brand>
          <LinkButton to={paths.login} variant="outline-primary" size="sm">
            LOG IN
          </LinkButton>
        </Container>
      </Navbar>
      <Container as="main" className="py-4">
        <Sandbox />
      </Container>
    </>
  );
}

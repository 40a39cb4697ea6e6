import { lazy, Suspense, useEffect, useState } from 'react';
import { Link } from 'react-router';
import Container from 'react-bootstrap/Container';
import Nav from 'react-bootstrap/Nav';
import NavDropdown from 'react-bootstrap/NavDropdown';
import Navbar from 'react-bootstrap/Navbar';
import { greetingText } from '@cloudtrim/contracts/messages';
import { Brand } from '../../components/brand';
import { Icon } from '../../components/icon';
import { useAccountDetails } from '../../features/account/api/get-account-details';
import { readName, storeName } from '../../lib/session';
import { createChangePasswordHref, paths } from '../../config/paths';
import { MenuEntryList } from './menu-entry-list';
import { getVisibleMenuEntries, mainPagesSectionTitle } from './menu-items';
import { useLogOut } from './use-log-out';
import { useStoredName } from './use-stored-name';

// The search, with the automation view, its modals and metrics behind it, is not in the shell's
// first load (SPEC's budget: 180 KB gzip): it is fetched when the Search button is pointed at or
// focused, and at the latest when it is pressed.
const loadResourceSearch = () => import('./resource-search');
const ResourceSearch = lazy(async () => ({ default: (await loadResourceSearch()).ResourceSearch }));

// The Alerts count and list are a chunk of their own too, fetched as the shell first renders: the
// shell's first load stays within its budget and the count follows a moment later. Until then the
// item stands where it will be, inactive.
const AlertsMenu = lazy(async () => ({
  default: (await import('../../features/alerts/components/alerts-menu')).AlertsMenu,
}));

function AlertsPlaceholder() {
  return (
    <button type="button" className="nav-link top-bar-action" disabled>
      <Icon name="bell" />
      <span className="top-bar-action-label">Alerts</span>
    </button>
  );
}

/** Keeps the stored first name in step with the profile, e.g. after it was edited on another device. */
function useNameRefresh() {
  const { data: accountDetails } = useAccountDetails();
  useEffect(() => {
    const firstName = accountDetails?.FirstName;
    if (firstName && readName() && firstName !== readName()) storeName(firstName);
  }, [accountDetails]);
}

export function TopBar() {
  const [isExpanded, setIsExpanded] = useState(false);
  const [isSearchShown, setIsSearchShown] = useState(false);
  // Mounted from its first opening on, so closing it keeps the modal's own closing transition.
  const [hasSearchOpened, setHasSearchOpened] = useState(false);
  const { logOut, logOutAllDevices } = useLogOut();
  const name = useStoredName(logOut);
  useNameRefresh();

  function onCollapse() {
    setIsExpanded(false);
  }

  function onOpenSearch() {
    setIsExpanded(false);
    setIsSearchShown(true);
    setHasSearchOpened(true);
  }

  return (
    <>
      <Navbar expand="md" expanded={isExpanded} onToggle={setIsExpanded} className="top-bar" as="header">
        <Container fluid>
          <Navbar.Brand as={Link} to={paths.home} className="d-md-none" aria-label="Cloudtrim home">
            <Brand />
          </Navbar.Brand>
          <Navbar.Toggle aria-controls="top-bar-menu" />
          <Navbar.Collapse id="top-bar-menu">
            <nav aria-labelledby="collapsed-menu-title" className="collapsed-menu d-md-none">
              <p id="collapsed-menu-title" className="menu-section-title">
                {mainPagesSectionTitle}
              </p>
              <MenuEntryList entries={getVisibleMenuEntries()} onNavigate={onCollapse} />
            </nav>
            <Nav className="ms-auto align-items-md-center top-bar-actions">
              <Nav.Item>
                <button
                  type="button"
                  className="nav-link top-bar-action"
                  onClick={onOpenSearch}
                  onPointerEnter={() => void loadResourceSearch()}
                  onFocus={() => void loadResourceSearch()}
                >
                  <Icon name="search" />
                  <span className="top-bar-action-label">Search</span>
                </button>
              </Nav.Item>
              <Nav.Item>
                <Suspense fallback={<AlertsPlaceholder />}>
                  <AlertsMenu icon={<Icon name="bell" />} />
                </Suspense>
              </Nav.Item>
              <Nav.Item>
                <button type="button" className="nav-link top-bar-action" disabled>
                  <Icon name="settings" />
                  <span className="top-bar-action-label">Settings</span>
                </button>
              </Nav.Item>
              <Nav.Item className="d-md-none">
                <Nav.Link as={Link} to={paths.profile} onClick={onCollapse}>
                  View/Edit Profile
                </Nav.Link>
              </Nav.Item>
              <NavDropdown
                id="user-menu"
                align="end"
                className="user-menu"
                title={
                  <>
                    <Icon name="user" className="me-1" />
                    {greetingText(name)}
                  </>
                }
              >
                <NavDropdown.Item as={Link} to={paths.profile} onClick={onCollapse}>
                  Profile
                </NavDropdown.Item>
                <NavDropdown.Item as={Link} to={createChangePasswordHref()} onClick={onCollapse}>
                  Change Password
                </NavDropdown.Item>
                <NavDropdown.Divider />
                <NavDropdown.Item as="button" onClick={() => void logOut()}>
                  Log Out
                </NavDropdown.Item>
                <NavDropdown.Item as="button" onClick={() => void logOutAllDevices()}>
                  Log Out All Devices
                </NavDropdown.Item>
              </NavDropdown>
            </Nav>
          </Navbar.Collapse>
        </Container>
      </Navbar>
      {hasSearchOpened ? (
        <Suspense fallback={null}>
          <ResourceSearch isShown={isSearchShown} onHide={() => setIsSearchShown(false)} />
        </Suspense>
      ) : null}
    </>
  );
}

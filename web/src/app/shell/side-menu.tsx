import { Link } from 'react-router';
import { Brand } from '../../components/brand';
import { paths } from '../../config/paths';
import { MenuEntryList } from './menu-entry-list';
import { getVisibleMenuEntries, mainPagesSectionTitle } from './menu-items';

/** The side menu of wide screens; narrow screens reach the same entries through the top bar. */
export function SideMenu() {
  return (
    <aside className="side-menu d-none d-md-flex">
      <Link to={paths.home} className="side-menu-brand" aria-label="Cloudtrim home">
        <Brand />
      </Link>
      <nav aria-labelledby="side-menu-title" className="side-menu-nav">
        <p id="side-menu-title" className="menu-section-title">
          {mainPagesSectionTitle}
        </p>
        <MenuEntryList entries={getVisibleMenuEntries()} />
      </nav>
    </aside>
  );
}

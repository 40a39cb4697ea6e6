import { NavLink } from 'react-router';
import { Icon } from '../../components/icon';
import type { MenuEntry, MenuLink } from './menu-items';

interface MenuEntryListProps {
  entries: MenuEntry[];
  /** Called after a link is followed, e.g. to collapse the mobile menu. */
  onNavigate?: () => void;
}

function getLinkClassName(entry: MenuLink, isActive = false): string {
  return [
    'menu-link',
    entry.isSubLevel ? 'menu-link-sub' : '',
    isActive ? 'active' : '',
    entry.isDisabled ? 'disabled' : '',
  ]
    .filter(Boolean)
    .join(' ');
}

function MenuLinkItem({ entry, onNavigate }: { entry: MenuLink; onNavigate?: () => void }) {
  const content = (
    <>
      <Icon name={entry.icon} className="menu-link-icon" />
      <span className="menu-link-label">{entry.label}</span>
      {entry.isExternal ? <Icon name="external" size={13} className="menu-link-external" /> : null}
    </>
  );

  if (entry.isDisabled) {
    return (
      <span className={getLinkClassName(entry)} aria-disabled="true">
        {content}
      </span>
    );
  }
  if (entry.isExternal) {
    return (
      <a className={getLinkClassName(entry)} href={entry.to} target="_blank" rel="noopener noreferrer">
        {content}
      </a>
    );
  }
  return (
    <NavLink
      to={entry.to}
      end
      className={({ isActive }) => getLinkClassName(entry, isActive)}
      onClick={onNavigate}
    >
      {content}
    </NavLink>
  );
}

export function MenuEntryList({ entries, onNavigate }: MenuEntryListProps) {
  return (
    <ul className="menu-list">
      {entries.map((entry) =>
        entry.kind === 'divider' ? (
          // Hidden from assistive technology: a separator role would make the list hold a non-item.
          <li key={entry.id} className="menu-divider" aria-hidden="true" />
        ) : (
          <li key={entry.to}>
            <MenuLinkItem entry={entry} onNavigate={onNavigate} />
          </li>
        ),
      )}
    </ul>
  );
}

import type { IconName } from '../../components/icon';
import { env } from '../../config/env';
import { paths } from '../../config/paths';

export interface MenuLink {
  kind: 'link';
  label: string;
  to: string;
  icon: IconName;
  /** Opens outside the app in a new tab. */
  isExternal?: boolean;
  isDisabled?: boolean;
  /** Indented under the entry above it. */
  isSubLevel?: boolean;
  /** Listed for the product but given no side entry yet; its route shows 'COMING SOON'. */
  isComingSoon?: boolean;
}

export interface MenuDivider {
  kind: 'divider';
  id: string;
}

export type MenuEntry = MenuLink | MenuDivider;

export const mainPagesSectionTitle = 'MAIN PAGES';

export const menuEntries: MenuEntry[] = [
  { kind: 'link', label: 'Home', to: paths.home, icon: 'home' },
  { kind: 'link', label: 'Cloud Management', to: paths.resources, icon: 'cloud' },
  { kind: 'link', label: 'Recommendations', to: paths.recommendations, icon: 'lightbulb', isSubLevel: true },
  { kind: 'link', label: 'Automation Logs', to: paths.logs, icon: 'list', isSubLevel: true },
  { kind: 'link', label: 'Sizing Schedule', to: paths.pending, icon: 'calendar', isSubLevel: true },
  { kind: 'link', label: 'Security', to: paths.security, icon: 'shield' },
  { kind: 'link', label: 'Automation Pipelines', to: paths.automation, icon: 'pipeline' },
  { kind: 'link', label: 'Cost Analysis & Budget', to: paths.analysis, icon: 'chart' },
  { kind: 'divider', id: 'team-divider' },
  { kind: 'link', label: 'Manage Team', to: paths.team, icon: 'users' },
  { kind: 'link', label: 'Manage Tenants', to: paths.tenants, icon: 'building' },
  { kind: 'link', label: "What's New", to: env.whatsNewUrl, icon: 'sparkles', isExternal: true },
  { kind: 'link', label: 'Help', to: env.helpUrl, icon: 'help', isExternal: true },
];

/** The entries the side menu (and the collapsed top bar) actually shows. */
export function getVisibleMenuEntries(entries: MenuEntry[] = menuEntries): MenuEntry[] {
  return entries.filter((entry) => entry.kind === 'divider' || !entry.isComingSoon);
}

export function getComingSoonTitle(path: string): string {
  const entry = menuEntries.find((candidate) => candidate.kind === 'link' && candidate.to === path);
  return entry?.kind === 'link' ? entry.label : '';
}

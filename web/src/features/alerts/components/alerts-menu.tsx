import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import Badge from 'react-bootstrap/Badge';
import { useAlerts } from '../api/get-alerts';
import { AlertsPanel } from './alerts-panel';
import './alerts.css';

function describeCount(count: number): string {
  if (count === 0) return 'Alerts';
  return `Alerts, ${count} unacknowledged`;
}

/** The top bar's Alerts: the count not yet acknowledged, and the list under the button. */
interface AlertsMenuProps {
  /**
   * The bell, from the shell that draws the other top-bar items: importing the icons here would make
   * the shell's chunk export them to this one, and lose its name in the build's manifest.
   */
  icon: ReactNode;
}

export function AlertsMenu({ icon }: AlertsMenuProps) {
  const panelId = useId();
  const [isOpen, setIsOpen] = useState(false);
  const containerRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const alerts = useAlerts();
  const count = alerts.data?.Unacknowledged ?? 0;

  useEffect(() => {
    if (!isOpen) return;
    function onPointerDown(event: PointerEvent) {
      if (!containerRef.current?.contains(event.target as Node)) setIsOpen(false);
    }
    function onKeyDown(event: KeyboardEvent) {
      if (event.key !== 'Escape') return;
      setIsOpen(false);
      buttonRef.current?.focus();
    }
    document.addEventListener('pointerdown', onPointerDown);
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('pointerdown', onPointerDown);
      document.removeEventListener('keydown', onKeyDown);
    };
  }, [isOpen]);

  function onToggle() {
    setIsOpen(!isOpen);
  }

  return (
    <div ref={containerRef} className="alerts-menu">
      <button
        ref={buttonRef}
        type="button"
        className="nav-link top-bar-action"
        aria-expanded={isOpen}
        aria-controls={panelId}
        aria-label={describeCount(count)}
        onClick={onToggle}
      >
        {icon}
        <span className="top-bar-action-label">Alerts</span>
        {count > 0 ? (
          <Badge bg="danger" pill className="alerts-count" aria-hidden="true">
            {count > 99 ? '99+' : count}
          </Badge>
        ) : null}
      </button>
      {isOpen ? (
        <div id={panelId} className="alerts-panel" role="region" aria-label="Alerts">
          <AlertsPanel onNavigate={() => setIsOpen(false)} />
        </div>
      ) : null}
    </div>
  );
}

import { lazy, Suspense, useEffect, useId, useRef, useState } from 'react';
import Badge from 'react-bootstrap/Badge';
import { DataLoading } from '../../../components/data-loading';
import { Icon } from '../../../components/icon';
import { useAlerts } from '../api/get-alerts';
import './alerts.css';

// The list is fetched when the button is pointed at or focused, and at the latest when it is pressed:
// the shell's first load carries the count alone.
const loadAlertsPanel = () => import('./alerts-panel');
const AlertsPanel = lazy(async () => ({ default: (await loadAlertsPanel()).AlertsPanel }));

function describeCount(count: number): string {
  if (count === 0) return 'Alerts';
  return `Alerts, ${count} unacknowledged`;
}

/** The top bar's Alerts: the count not yet acknowledged, and the list under the button. */
export function AlertsMenu() {
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
        onPointerEnter={() => void loadAlertsPanel()}
        onFocus={() => void loadAlertsPanel()}
      >
        <Icon name="bell" />
        <span className="top-bar-action-label">Alerts</span>
        {count > 0 ? (
          <Badge bg="danger" pill className="alerts-count" aria-hidden="true">
            {count > 99 ? '99+' : count}
          </Badge>
        ) : null}
      </button>
      {isOpen ? (
        <div id={panelId} className="alerts-panel" role="region" aria-label="Alerts">
          <Suspense fallback={<DataLoading label="Loading the alerts" isSmall />}>
            <AlertsPanel onNavigate={() => setIsOpen(false)} />
          </Suspense>
        </div>
      ) : null}
    </div>
  );
}

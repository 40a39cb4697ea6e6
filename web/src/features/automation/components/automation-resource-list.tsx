import { Fragment, lazy, Suspense, useState, type ReactNode } from 'react';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Table from 'react-bootstrap/Table';
import { automationLabels } from '@cloudtrim/contracts/automation';
import type { AutomationResource } from '@cloudtrim/contracts/resources';
import { resourceTableMediaQuery, useMediaQuery } from '../../../lib/use-media-query';
import '../../../components/data-views.css';

// The search (in the shell's first load) shows this list; its automation modal is fetched the first
// time one opens.
const AutomationModal = lazy(async () => ({ default: (await import('./automation-modal')).AutomationModal }));

// SPEC's "Resource list with metrics (automation view)".
const columnCount = 6;
const logsText = 'LOGS';

/** What other features show for one resource; the app composes them (features never import each other). */
export interface ResourcePanels {
  /** The resource's metrics, below its row or in its card. */
  renderMetrics: (resource: AutomationResource, onClose: () => void) => ReactNode;
  /** The LOGS modal: its recommendations and automation logs. */
  renderLogsModal: (resource: AutomationResource, onHide: () => void) => ReactNode;
}

interface AutomationResourceListProps extends ResourcePanels {
  resources: readonly AutomationResource[];
  /** The query that lists these resources, refreshed after an automation update. */
  invalidates: readonly unknown[];
}

interface ResourceViewProps {
  resources: readonly AutomationResource[];
  expandedResourceId: string | null;
  onToggle: (resourceId: string) => void;
  onOpenAutomation: (resource: AutomationResource) => void;
  onOpenLogs: (resource: AutomationResource) => void;
  renderMetrics: ResourcePanels['renderMetrics'];
}

type OpenModal = { kind: 'automation' | 'logs'; resource: AutomationResource } | null;

// A button in a row that expands on click: it opens its modal and leaves the row as it was.
function RowButton({
  label,
  variant,
  className,
  onClick,
  children,
}: {
  label: string;
  variant: string;
  className?: string;
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <Button
      size="sm"
      variant={variant}
      className={className}
      aria-label={label}
      onClick={(event) => {
        event.stopPropagation();
        onClick();
      }}
    >
      {children}
    </Button>
  );
}

function AutomationButton({
  resource,
  onOpen,
}: {
  resource: AutomationResource;
  onOpen: (resource: AutomationResource) => void;
}) {
  return (
    <RowButton
      variant="outline-primary"
      className="text-nowrap"
      label={`Automation: ${automationLabels[resource.Automated]}, change for ${resource.ResourceName}`}
      onClick={() => onOpen(resource)}
    >
      {automationLabels[resource.Automated]}
    </RowButton>
  );
}

function LogsButton({
  resource,
  onOpen,
}: {
  resource: AutomationResource;
  onOpen: (resource: AutomationResource) => void;
}) {
  return (
    <RowButton
      variant="outline-secondary"
      label={`${logsText} for ${resource.ResourceName}`}
      onClick={() => onOpen(resource)}
    >
      {logsText}
    </RowButton>
  );
}

function PredictionMethod({ resource }: { resource: AutomationResource }) {
  return <span title={resource.PredictionMethod}>{resource.PredictionMethodFriendlyShortText}</span>;
}

function ResourceTable({
  resources,
  expandedResourceId,
  onToggle,
  onOpenAutomation,
  onOpenLogs,
  renderMetrics,
}: ResourceViewProps) {
  return (
    <Table responsive className="data-table">
      <thead>
        <tr>
          <th scope="col">AUTOMATION</th>
          <th scope="col">RESOURCE NAME</th>
          <th scope="col">PREDICTION METHOD</th>
          <th scope="col">RESOURCE CATEGORY</th>
          <th scope="col">SUBCATEGORY</th>
          <th scope="col">LOGS</th>
        </tr>
      </thead>
      <tbody>
        {resources.map((resource) => {
          const isExpanded = resource.ResourceId === expandedResourceId;
          return (
            <Fragment key={resource.ResourceId}>
              <tr
                className={isExpanded ? 'expandable-row is-expanded' : 'expandable-row'}
                onClick={() => onToggle(resource.ResourceId)}
              >
                <td>
                  <AutomationButton resource={resource} onOpen={onOpenAutomation} />
                </td>
                <td>
                  <button
                    type="button"
                    className="link-button"
                    aria-expanded={isExpanded}
                    title={resource.ResourceId}
                    onClick={(event) => {
                      event.stopPropagation();
                      onToggle(resource.ResourceId);
                    }}
                  >
                    {resource.ResourceName}
                  </button>
                </td>
                <td>
                  <PredictionMethod resource={resource} />
                </td>
                <td>{resource.ResourceCategory}</td>
                <td>{resource.SubCategory}</td>
                <td>
                  <LogsButton resource={resource} onOpen={onOpenLogs} />
                </td>
              </tr>
              {isExpanded ? (
                <tr className="metrics-row">
                  <td colSpan={columnCount}>
                    {renderMetrics(resource, () => onToggle(resource.ResourceId))}
                  </td>
                </tr>
              ) : null}
            </Fragment>
          );
        })}
      </tbody>
    </Table>
  );
}

function ResourceCards({
  resources,
  expandedResourceId,
  onToggle,
  onOpenAutomation,
  onOpenLogs,
  renderMetrics,
}: ResourceViewProps) {
  return (
    <div className="data-card-list">
      {resources.map((resource) => {
        const isExpanded = resource.ResourceId === expandedResourceId;
        return (
          <Card key={resource.ResourceId} className="data-card">
            <Card.Body>
              <Card.Title as="h3" title={resource.ResourceId}>
                {resource.ResourceName}
              </Card.Title>
              <dl className="data-card-fields">
                <dt>AUTOMATION</dt>
                <dd>
                  <AutomationButton resource={resource} onOpen={onOpenAutomation} />
                </dd>
                <dt>PREDICTION METHOD</dt>
                <dd>
                  <PredictionMethod resource={resource} />
                </dd>
                <dt>RESOURCE CATEGORY</dt>
                <dd>{resource.ResourceCategory}</dd>
                <dt>SUBCATEGORY</dt>
                <dd>{resource.SubCategory}</dd>
              </dl>
              <div className="d-flex gap-2 mt-3">
                <Button
                  size="sm"
                  variant={isExpanded ? 'primary' : 'outline-primary'}
                  aria-expanded={isExpanded}
                  onClick={() => onToggle(resource.ResourceId)}
                >
                  METRICS
                </Button>
                <LogsButton resource={resource} onOpen={onOpenLogs} />
              </div>
            </Card.Body>
            {isExpanded ? renderMetrics(resource, () => onToggle(resource.ResourceId)) : null}
          </Card>
        );
      })}
    </div>
  );
}

/**
 * A table from 868px up, cards below; a row (or a card's METRICS button) opens the resource's metrics,
 * its automation button the automation modal and its LOGS button the recommendations and automation logs.
 */
export function AutomationResourceList({
  resources,
  invalidates,
  renderMetrics,
  renderLogsModal,
}: AutomationResourceListProps) {
  const isWide = useMediaQuery(resourceTableMediaQuery);
  const [expandedResourceId, setExpandedResourceId] = useState<string | null>(null);
  const [openModal, setOpenModal] = useState<OpenModal>(null);

  function onToggle(resourceId: string) {
    setExpandedResourceId((current) => (current === resourceId ? null : resourceId));
  }

  const viewProps: ResourceViewProps = {
    resources,
    expandedResourceId,
    onToggle,
    onOpenAutomation: (resource) => setOpenModal({ kind: 'automation', resource }),
    onOpenLogs: (resource) => setOpenModal({ kind: 'logs', resource }),
    renderMetrics,
  };
  const onHideModal = () => setOpenModal(null);

  return (
    <>
      {isWide ? <ResourceTable {...viewProps} /> : <ResourceCards {...viewProps} />}
      {/* Mounted only while open, so each opening starts from the resource's saved values. */}
      <Suspense fallback={null}>
        {openModal?.kind === 'automation' ? (
          <AutomationModal
            resource={openModal.resource}
            isShown
            onHide={onHideModal}
            invalidates={invalidates}
          />
        ) : null}
        {openModal?.kind === 'logs' ? renderLogsModal(openModal.resource, onHideModal) : null}
      </Suspense>
    </>
  );
}

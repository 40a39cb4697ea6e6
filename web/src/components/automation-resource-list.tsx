import { Fragment, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Table from 'react-bootstrap/Table';
import { automationLabels } from '@cloudtrim/contracts/automation';
import type { AutomationResource } from '@cloudtrim/contracts/resources';
import { resourceTableMediaQuery, useMediaQuery } from '../lib/use-media-query';
import { MetricsPanel } from './metrics-panel';
import './data-views.css';

// SPEC's "Resource list with metrics (automation view)". The automation and logs actions arrive with
// the automation screens; until then the AUTOMATION column states the setting and LOGS stays empty.
const columnCount = 6;

interface AutomationResourceListProps {
  resources: readonly AutomationResource[];
}

interface ResourceViewProps extends AutomationResourceListProps {
  expandedResourceId: string | null;
  onToggle: (resourceId: string) => void;
}

function AutomationState({ resource }: { resource: AutomationResource }) {
  return <span className="badge text-bg-light border">{automationLabels[resource.Automated]}</span>;
}

function PredictionMethod({ resource }: { resource: AutomationResource }) {
  return <span title={resource.PredictionMethod}>{resource.PredictionMethodFriendlyShortText}</span>;
}

function ResourceTable({ resources, expandedResourceId, onToggle }: ResourceViewProps) {
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
                  <AutomationState resource={resource} />
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
                <td />
              </tr>
              {isExpanded ? (
                <tr className="metrics-row">
                  <td colSpan={columnCount}>
                    <MetricsPanel
                      resourceId={resource.ResourceId}
                      resourceName={resource.ResourceName}
                      onClose={() => onToggle(resource.ResourceId)}
                    />
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

function ResourceCards({ resources, expandedResourceId, onToggle }: ResourceViewProps) {
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
                  <AutomationState resource={resource} />
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
              <Button
                className="mt-3"
                size="sm"
                variant={isExpanded ? 'primary' : 'outline-primary'}
                aria-expanded={isExpanded}
                onClick={() => onToggle(resource.ResourceId)}
              >
                METRICS
              </Button>
            </Card.Body>
            {isExpanded ? (
              <MetricsPanel
                resourceId={resource.ResourceId}
                resourceName={resource.ResourceName}
                onClose={() => onToggle(resource.ResourceId)}
              />
            ) : null}
          </Card>
        );
      })}
    </div>
  );
}

/** A table from 868px up, cards below; a row (or a card's METRICS button) opens the resource's metrics. */
export function AutomationResourceList({ resources }: AutomationResourceListProps) {
  const isWide = useMediaQuery(resourceTableMediaQuery);
  const [expandedResourceId, setExpandedResourceId] = useState<string | null>(null);

  function onToggle(resourceId: string) {
    setExpandedResourceId((current) => (current === resourceId ? null : resourceId));
  }

  const viewProps = { resources, expandedResourceId, onToggle };
  return isWide ? <ResourceTable {...viewProps} /> : <ResourceCards {...viewProps} />;
}

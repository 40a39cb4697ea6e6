import { useState } from 'react';
import Card from 'react-bootstrap/Card';
import Table from 'react-bootstrap/Table';
import type { PipelineItem } from '@cloudtrim/contracts/pipelines';
import { pageSize } from '@cloudtrim/contracts/paging';
import { Pagination } from '../../../components/pagination';
import { clampPage, getPageCount } from '../../../components/pagination-pages';
import { logListTableMediaQuery, useMediaQuery } from '../../../lib/use-media-query';
import { describeOutcome, formatSaving } from '../utils/pipeline-text';
import { TableScrollRegion } from './table-scroll-region';

interface PipelineItemsProps {
  items: readonly PipelineItem[];
  /** Names the table (or the card list) for screen readers. */
  label: string;
  /** Three columns, for a narrow panel (the builder's preview): the group and detail go on second lines. */
  isCompact?: boolean;
}

function CompactItemsTable({ items, label }: Pick<PipelineItemsProps, 'items' | 'label'>) {
  return (
    <Table size="sm" className="data-table pipeline-items-compact">
      <caption className="visually-hidden">{label}</caption>
      <thead>
        <tr>
          <th scope="col">RESOURCE</th>
          <th scope="col">OUTCOME</th>
          <th scope="col" className="text-end">
            ANNUAL SAVING
          </th>
        </tr>
      </thead>
      <tbody>
        {items.map((item) => (
          <tr key={item.resourceId}>
            <th scope="row">
              {item.resourceName}
              <span className="pipeline-item-note">{item.resourceGroup}</span>
            </th>
            <td className={`pipeline-outcome is-${item.outcome}`}>
              {describeOutcome(item)}
              <span className="pipeline-item-note">{item.detail}</span>
            </td>
            <td className="text-end text-nowrap">{formatSaving(item.annualSaving)}</td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}

/** Resources a pipeline matched: what became (or would become) of each, and its annual saving. */
export function PipelineItems({ items, label, isCompact = false }: PipelineItemsProps) {
  const isTable = useMediaQuery(logListTableMediaQuery);
  const [page, setPage] = useState(1);
  const currentPage = clampPage(page, getPageCount(items.length, pageSize));
  const shown = items.slice((currentPage - 1) * pageSize, currentPage * pageSize);
  return (
    <>
      {isTable && isCompact ? <CompactItemsTable items={shown} label={label} /> : null}
      {isTable && !isCompact ? (
        <TableScrollRegion label={label}>
          <Table size="sm" className="data-table">
            <caption className="visually-hidden">{label}</caption>
            <thead>
              <tr>
                <th scope="col">RESOURCE</th>
                <th scope="col">RESOURCE GROUP</th>
                <th scope="col">OUTCOME</th>
                <th scope="col">DETAIL</th>
                <th scope="col" className="text-end">
                  ANNUAL SAVING
                </th>
              </tr>
            </thead>
            <tbody>
              {shown.map((item) => (
                <tr key={item.resourceId}>
                  <th scope="row" className="cell-wrap">
                    {item.resourceName}
                  </th>
                  <td>{item.resourceGroup}</td>
                  <td className={`pipeline-outcome is-${item.outcome}`}>{describeOutcome(item)}</td>
                  <td className="cell-wrap">{item.detail}</td>
                  <td className="text-end text-nowrap">{formatSaving(item.annualSaving)}</td>
                </tr>
              ))}
            </tbody>
          </Table>
        </TableScrollRegion>
      ) : null}
      {isTable ? null : (
        <div className="data-card-list" role="list" aria-label={label}>
          {shown.map((item) => (
            <div role="listitem" key={item.resourceId}>
              <Card className="data-card">
                <Card.Body>
                  <Card.Title as="h4">{item.resourceName}</Card.Title>
                  <dl className="data-card-fields">
                    <dt>RESOURCE GROUP</dt>
                    <dd>{item.resourceGroup}</dd>
                    <dt>OUTCOME</dt>
                    <dd className={`pipeline-outcome is-${item.outcome}`}>{describeOutcome(item)}</dd>
                    <dt>DETAIL</dt>
                    <dd>{item.detail}</dd>
                    <dt>ANNUAL SAVING</dt>
                    <dd>{formatSaving(item.annualSaving)}</dd>
                  </dl>
                </Card.Body>
              </Card>
            </div>
          ))}
        </div>
      )}
      {items.length > pageSize ? (
        <Pagination
          currentPage={currentPage}
          totalEntries={items.length}
          onPageChange={setPage}
          label={`${label} pages`}
        />
      ) : null}
    </>
  );
}

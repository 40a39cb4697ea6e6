import Card from 'react-bootstrap/Card';
import Table from 'react-bootstrap/Table';
import type { CostGroupBy } from '@cloudtrim/contracts/costs';
import { logListTableMediaQuery, useMediaQuery } from '../../../lib/use-media-query';
import { partialTotalText } from '../utils/cost-bill-gap';
import type { CostBreakdownRow } from '../utils/cost-breakdown';
import { describeCostGroup, getGroupHeading } from '../utils/cost-groups';
import { formatCost } from '../../../lib/format-cost';
import { CostChange } from './cost-change';

export const totalText = 'TOTAL';

interface CostBreakdownViewProps {
  /** Names the table for assistive technology. */
  label: string;
  rows: readonly CostBreakdownRow[];
  groupBy: CostGroupBy;
  currency: string;
  /** The periods' totals, shown after the rows. */
  total?: CostBreakdownRow;
  /** Either period's bill is still being read: its totals are marked partial. */
  isPartial?: boolean;
}

function GroupName({ row, groupBy }: { row: CostBreakdownRow; groupBy: CostGroupBy }) {
  // A resource is named by its ARM id's last segment; the whole id shows on hover.
  return (
    <span title={groupBy === 'resource' ? row.group : undefined}>
      {describeCostGroup(groupBy, row.group)}
    </span>
  );
}

function CostTable({ label, rows, groupBy, currency, total, isPartial }: CostBreakdownViewProps) {
  return (
    <Table responsive className="data-table cost-table">
      <caption className="visually-hidden">{label}</caption>
      <thead>
        <tr>
          <th scope="col">{getGroupHeading(groupBy)}</th>
          <th scope="col" className="text-end">
            COST
          </th>
          <th scope="col" className="text-end">
            PREVIOUS PERIOD
          </th>
          <th scope="col" className="text-end">
            CHANGE
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.group}>
            <th scope="row" className="cost-group-cell">
              <GroupName row={row} groupBy={groupBy} />
            </th>
            <td className="text-end text-nowrap">{formatCost(row.cost, currency)}</td>
            <td className="text-end text-nowrap">{formatCost(row.previousCost, currency)}</td>
            <td className="text-end text-nowrap">
              <CostChange percent={row.change} />
            </td>
          </tr>
        ))}
      </tbody>
      {total ? (
        <tfoot>
          <tr className="cost-total-row">
            <th scope="row">{isPartial ? partialTotalText : totalText}</th>
            <td className="text-end text-nowrap">{formatCost(total.cost, currency)}</td>
            <td className="text-end text-nowrap">{formatCost(total.previousCost, currency)}</td>
            <td className="text-end text-nowrap">
              <CostChange percent={total.change} />
            </td>
          </tr>
        </tfoot>
      ) : null}
    </Table>
  );
}

function CostCard({
  title,
  row,
  currency,
  hoverText,
  isTotal = false,
}: {
  title: string;
  row: CostBreakdownRow;
  currency: string;
  hoverText?: string;
  isTotal?: boolean;
}) {
  return (
    <Card className={isTotal ? 'data-card cost-total-card' : 'data-card'}>
      <Card.Body>
        <Card.Title as="h3" title={hoverText}>
          {title}
        </Card.Title>
        <dl className="data-card-fields">
          <dt>COST</dt>
          <dd>{formatCost(row.cost, currency)}</dd>
          <dt>PREVIOUS PERIOD</dt>
          <dd>{formatCost(row.previousCost, currency)}</dd>
          <dt>CHANGE</dt>
          <dd>
            <CostChange percent={row.change} />
          </dd>
        </dl>
      </Card.Body>
    </Card>
  );
}

function CostCards({ label, rows, groupBy, currency, total, isPartial }: CostBreakdownViewProps) {
  return (
    <div className="data-card-list cost-card-list" role="list" aria-label={label}>
      {rows.map((row) => (
        <div role="listitem" key={row.group}>
          <CostCard
            title={describeCostGroup(groupBy, row.group)}
            hoverText={groupBy === 'resource' ? row.group : undefined}
            row={row}
            currency={currency}
          />
        </div>
      ))}
      {total ? (
        <div role="listitem">
          <CostCard
            title={isPartial ? partialTotalText : totalText}
            row={total}
            currency={currency}
            isTotal
          />
        </div>
      ) : null}
    </div>
  );
}

/** Groups with their cost, the previous period's and the change: a table, or cards on narrow screens (SPEC §2). */
export function CostBreakdownView(props: CostBreakdownViewProps) {
  const isTable = useMediaQuery(logListTableMediaQuery);
  return isTable ? <CostTable {...props} /> : <CostCards {...props} />;
}

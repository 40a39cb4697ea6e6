import { useMemo, useState } from 'react';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Table from 'react-bootstrap/Table';
import { budgetBillReadingText, type AzureBudget, type Budget } from '@cloudtrim/contracts/budgets';
import { notAvailableText } from '@cloudtrim/contracts/messages';
import { pageSize } from '@cloudtrim/contracts/paging';
import { ListLoadState } from '../../../components/list-load-state';
import { Pagination } from '../../../components/pagination';
import { clampPage, getPageCount } from '../../../components/pagination-pages';
import { formatCost } from '../../../lib/format-cost';
import { logListTableMediaQuery, useMediaQuery } from '../../../lib/use-media-query';
import { useBudgets } from '../api/get-budgets';
import { budgetPeriodLabels, describeBudgetScope, formatBudgetDay, inAzureText } from '../utils/budget-text';
import { BudgetBurnDown } from './budget-burn-down';
import { BudgetFormModal, type BudgetMemberOption, type BudgetTenantOption } from './budget-form-modal';
import { DeleteBudgetDialog } from './delete-budget-dialog';
import './budgets.css';
import { useIsReadOnly } from '../../../lib/my-role';

export type { BudgetMemberOption, BudgetTenantOption } from './budget-form-modal';

export const noBudgetsText = 'No budgets right now: add one to hear about overspend before the bill does.';

type BudgetRow = { isOurs: true; budget: Budget } | { isOurs: false; budget: AzureBudget };

interface RowViewProps {
  row: BudgetRow;
  tenantNames: ReadonlyMap<string, string>;
  onEdit: (budget: Budget) => void;
  onDelete: (budget: Budget) => void;
}

/** What each column says of a row, ours or Azure's. */
function describeRow({ row, tenantNames }: Pick<RowViewProps, 'row' | 'tenantNames'>) {
  if (row.isOurs) {
    const { budget } = row;
    return {
      key: budget.Id,
      name: budget.Name,
      scope: describeBudgetScope(budget.Scope, tenantNames),
      period: `${budgetPeriodLabels[budget.Period]}: ${formatBudgetDay(budget.PeriodStart)} to ${formatBudgetDay(budget.PeriodEnd)}`,
      amount: formatCost(budget.Amount, budget.Currency),
      spent: formatCost(budget.Spent, budget.Currency),
      forecast: formatCost(budget.Forecast, budget.Currency),
    };
  }
  const { budget } = row;
  const tenant = tenantNames.get(budget.TenantId);
  return {
    key: `${budget.SubscriptionId}/${budget.Name}`,
    name: budget.Name,
    scope: `${tenant ? `Tenant ${tenant} · subscription` : 'Subscription'} ${budget.SubscriptionId}`,
    period: `${budget.TimeGrain} from ${formatBudgetDay(budget.StartDate)}${budget.EndDate ? ` to ${formatBudgetDay(budget.EndDate)}` : ''}`,
    amount: formatCost(budget.Amount, budget.Currency),
    spent: formatCost(budget.CurrentSpend, budget.Currency),
    forecast:
      budget.ForecastSpend === null ? notAvailableText : formatCost(budget.ForecastSpend, budget.Currency),
  };
}

function BudgetName({ row }: { row: BudgetRow }) {
  if (!row.isOurs) {
    return (
      <>
        {row.budget.Name}{' '}
        <Badge bg="secondary" className="ms-1">
          {inAzureText}
        </Badge>
      </>
    );
  }
  return (
    <>
      {row.budget.Name}
      {row.budget.Crossed.map((crossing) => (
        <span key={`${crossing.Percent}:${crossing.Basis}`} className="budget-crossed">
          Crossed {crossing.Percent}% ({crossing.Basis === 'actual' ? 'actual' : 'forecasted'})
        </span>
      ))}
      {row.budget.Complete ? null : <span className="budget-reading">{budgetBillReadingText}</span>}
    </>
  );
}

/** Azure tells a budget's spend so far, not its days: how much of it is used is what can be drawn. */
function AzureBudgetMeter({ budget }: { budget: AzureBudget }) {
  const percent = budget.Amount > 0 ? Math.round((budget.CurrentSpend / budget.Amount) * 100) : 0;
  return (
    <div className="budget-meter">
      <meter
        min={0}
        max={budget.Amount}
        high={budget.Amount * 0.8}
        optimum={0}
        value={budget.CurrentSpend}
        aria-label={`${budget.Name}: ${percent}% of the budget spent`}
      />
      <span>{percent}% spent</span>
    </div>
  );
}

function BurnDownCell({ row }: { row: BudgetRow }) {
  return row.isOurs ? <BudgetBurnDown budget={row.budget} /> : <AzureBudgetMeter budget={row.budget} />;
}

function RowActions({ row, onEdit, onDelete }: Omit<RowViewProps, 'tenantNames'>) {
  // A Viewer reads only: no edit or delete.
  const isReadOnly = useIsReadOnly();
  if (!row.isOurs || isReadOnly) return <span className="text-body-secondary small">Read-only</span>;
  const { budget } = row;
  return (
    <div className="budget-actions">
      <Button
        variant="outline-primary"
        size="sm"
        onClick={() => onEdit(budget)}
        aria-label={`Edit ${budget.Name}`}
      >
        EDIT
      </Button>
      <Button
        variant="outline-danger"
        size="sm"
        onClick={() => onDelete(budget)}
        aria-label={`Delete ${budget.Name}`}
      >
        DELETE
      </Button>
    </div>
  );
}

function BudgetTableRow(props: RowViewProps) {
  const text = describeRow(props);
  return (
    <tr>
      <th scope="row" className="budget-name-cell">
        <BudgetName row={props.row} />
      </th>
      <td className="cell-wrap">{text.scope}</td>
      <td>{text.period}</td>
      <td className="text-end text-nowrap">{text.amount}</td>
      <td className="text-end text-nowrap">{text.spent}</td>
      <td className="text-end text-nowrap">{text.forecast}</td>
      <td className="budget-burn-down-cell">
        <BurnDownCell row={props.row} />
      </td>
      <td>
        <RowActions {...props} />
      </td>
    </tr>
  );
}

function BudgetCard(props: RowViewProps) {
  const text = describeRow(props);
  return (
    <Card className="data-card">
      <Card.Body>
        <Card.Title as="h3">
          <BudgetName row={props.row} />
        </Card.Title>
        <dl className="data-card-fields">
          <dt>SCOPE</dt>
          <dd>{text.scope}</dd>
          <dt>PERIOD</dt>
          <dd>{text.period}</dd>
          <dt>BUDGET</dt>
          <dd>{text.amount}</dd>
          <dt>SPENT</dt>
          <dd>{text.spent}</dd>
          <dt>FORECAST</dt>
          <dd>{text.forecast}</dd>
        </dl>
        <div className="budget-card-burn-down">
          <BurnDownCell row={props.row} />
        </div>
        <div className="mt-2">
          <RowActions {...props} />
        </div>
      </Card.Body>
    </Card>
  );
}

function BurnDownLegend() {
  return (
    <ul className="budgets-legend" aria-label="Burn-down legend">
      <li>
        <span className="budgets-legend-swatch budgets-legend-actual" aria-hidden="true" />
        Spent to date
      </li>
      <li>
        <span className="budgets-legend-swatch budgets-legend-forecast" aria-hidden="true" />
        Forecast to the period’s end, shaded where it will likely land
      </li>
      <li>
        <span className="budgets-legend-swatch budgets-legend-budget" aria-hidden="true" />
        Budget (thresholds marked on the right)
      </li>
    </ul>
  );
}

interface BudgetsProps {
  /** The team's tenants, to name a scope and choose one. */
  tenants: readonly BudgetTenantOption[];
  /** The team's members, who can be mailed when a threshold is crossed. */
  members: readonly BudgetMemberOption[];
}

// The budget stays named while the form fades out after it was closed.
interface Editing {
  isShown: boolean;
  budget: Budget | null;
}

/** The team's budgets and Azure's (read-only), each with its burn-down; add, edit and delete. */
export function Budgets({ tenants, members }: BudgetsProps) {
  const budgets = useBudgets();
  const isTable = useMediaQuery(logListTableMediaQuery);
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<Editing>({ isShown: false, budget: null });
  // A Viewer reads only: no new budget.
  const isReadOnly = useIsReadOnly();
  const [deleting, setDeleting] = useState<Budget | null>(null);
  const tenantNames = useMemo(() => new Map(tenants.map((tenant) => [tenant.id, tenant.name])), [tenants]);
  const rows = useMemo<BudgetRow[]>(
    () => [
      ...(budgets.data?.Budgets ?? []).map((budget) => ({ isOurs: true as const, budget })),
      ...(budgets.data?.AzureBudgets ?? []).map((budget) => ({ isOurs: false as const, budget })),
    ],
    [budgets.data],
  );
  const currentPage = clampPage(page, getPageCount(rows.length, pageSize));
  const shown = rows.slice((currentPage - 1) * pageSize, currentPage * pageSize);
  const rowProps = {
    tenantNames,
    onEdit: (budget: Budget) => setEditing({ isShown: true, budget }),
    onDelete: setDeleting,
  };

  function renderList() {
    if (budgets.isError || !budgets.data) {
      return <ListLoadState query={budgets} emptyText={noBudgetsText} loadingLabel="Loading the budgets" />;
    }
    if (rows.length === 0) return <p className="data-empty">{noBudgetsText}</p>;
    return (
      <>
        {isTable ? (
          <Table responsive className="data-table">
            <caption className="visually-hidden">Budgets</caption>
            <thead>
              <tr>
                <th scope="col">NAME</th>
                <th scope="col">SCOPE</th>
                <th scope="col">PERIOD</th>
                <th scope="col" className="text-end">
                  BUDGET
                </th>
                <th scope="col" className="text-end">
                  SPENT
                </th>
                <th scope="col" className="text-end">
                  FORECAST
                </th>
                <th scope="col">BURN-DOWN</th>
                <th scope="col">
                  <span className="visually-hidden">ACTIONS</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {shown.map((row) => (
                <BudgetTableRow key={describeRow({ row, tenantNames }).key} row={row} {...rowProps} />
              ))}
            </tbody>
          </Table>
        ) : (
          <div className="data-card-list p-2" role="list" aria-label="Budgets">
            {shown.map((row) => (
              <div role="listitem" key={describeRow({ row, tenantNames }).key}>
                <BudgetCard row={row} {...rowProps} />
              </div>
            ))}
          </div>
        )}
        {rows.length > pageSize ? (
          <Pagination
            currentPage={currentPage}
            totalEntries={rows.length}
            onPageChange={setPage}
            label="Budgets pages"
          />
        ) : null}
      </>
    );
  }

  return (
    <>
      <div className="budgets-toolbar">
        <BurnDownLegend />
        <Button
          variant="primary"
          size="sm"
          hidden={isReadOnly}
          onClick={() => setEditing({ isShown: true, budget: null })}
        >
          ADD BUDGET
        </Button>
      </div>
      {renderList()}
      <BudgetFormModal
        isShown={editing.isShown}
        budget={editing.budget}
        tenants={tenants}
        members={members}
        onHide={() => setEditing({ ...editing, isShown: false })}
        onSaved={() => setEditing({ ...editing, isShown: false })}
      />
      <DeleteBudgetDialog
        budget={deleting}
        onCancel={() => setDeleting(null)}
        onDeleted={() => setDeleting(null)}
      />
    </>
  );
}

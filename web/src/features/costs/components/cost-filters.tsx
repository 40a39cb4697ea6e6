import { useState, type FormEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { costFilterSchema, type CostFilter } from '@cloudtrim/contracts/costs';
import { costFilterNames, type CostFilterName } from '../utils/cost-settings';

/** A tenant the bill can be narrowed to: our tenant Id and its name. */
export interface CostTenantOption {
  id: string;
  name: string;
}

const textFields: { name: Exclude<CostFilterName, 'tenantId'>; label: string; placeholder: string }[] = [
  { name: 'subscriptionId', label: 'Subscription id', placeholder: '00000000-0000-0000-0000-000000000000' },
  { name: 'resourceGroup', label: 'Resource group', placeholder: 'rg-production' },
  { name: 'service', label: 'Service', placeholder: 'Virtual Machines' },
  { name: 'tag', label: 'Tag', placeholder: 'NAME=VALUE' },
];

type Drafts = Record<CostFilterName, string>;
type Problems = Partial<Record<CostFilterName, string>>;

function createDrafts(filter: CostFilter): Drafts {
  return Object.fromEntries(costFilterNames.map((name) => [name, filter[name] ?? ''])) as Drafts;
}

/** The drafts as a filter, or each field's problem in the contract's words. */
function readDrafts(drafts: Drafts): { filter: CostFilter; problems: Problems } {
  const filter: CostFilter = {};
  const problems: Problems = {};
  for (const name of costFilterNames) {
    const value = drafts[name].trim();
    if (!value) continue;
    const parsed = costFilterSchema.shape[name].safeParse(value);
    if (parsed.success) filter[name] = parsed.data;
    else problems[name] = parsed.error.issues[0]?.message ?? 'Not valid.';
  }
  return { filter, problems };
}

interface CostFiltersProps {
  filter: CostFilter;
  tenants: readonly CostTenantOption[];
  onApply: (filter: CostFilter) => void;
}

/** Narrows the bill to a tenant, subscription, resource group, service or tag; applied together. */
export function CostFilters({ filter, tenants, onApply }: CostFiltersProps) {
  const [drafts, setDrafts] = useState(() => createDrafts(filter));
  const [problems, setProblems] = useState<Problems>({});
  const activeCount = costFilterNames.filter((name) => filter[name]).length;

  function onChange(name: CostFilterName, value: string) {
    setDrafts((current) => ({ ...current, [name]: value }));
    setProblems(({ [name]: _changed, ...rest }) => rest);
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const read = readDrafts(drafts);
    setProblems(read.problems);
    if (Object.keys(read.problems).length === 0) onApply(read.filter);
  }

  return (
    <details className="cost-filters" open={activeCount > 0}>
      <summary>{activeCount > 0 ? `Filters (${activeCount})` : 'Filters'}</summary>
      <Form noValidate className="cost-filters-form" onSubmit={onSubmit}>
        <Form.Group controlId="cost-filter-tenantId" className="cost-control">
          <Form.Label>Tenant</Form.Label>
          <Form.Select value={drafts.tenantId} onChange={(event) => onChange('tenantId', event.target.value)}>
            <option value="">All tenants</option>
            {tenants.map((tenant) => (
              <option key={tenant.id} value={tenant.id}>
                {tenant.name}
              </option>
            ))}
          </Form.Select>
        </Form.Group>
        {textFields.map((field) => (
          <Form.Group key={field.name} controlId={`cost-filter-${field.name}`} className="cost-control">
            <Form.Label>{field.label}</Form.Label>
            <Form.Control
              value={drafts[field.name]}
              placeholder={field.placeholder}
              autoComplete="off"
              isInvalid={problems[field.name] !== undefined}
              onChange={(event) => onChange(field.name, event.target.value)}
            />
            <Form.Control.Feedback type="invalid">{problems[field.name]}</Form.Control.Feedback>
          </Form.Group>
        ))}
        <div className="cost-filters-actions">
          <Button type="submit" size="sm">
            APPLY FILTERS
          </Button>
          <Button
            type="button"
            size="sm"
            variant="outline-secondary"
            disabled={activeCount === 0}
            onClick={() => {
              setDrafts(createDrafts({}));
              setProblems({});
              onApply({});
            }}
          >
            CLEAR
          </Button>
        </div>
      </Form>
    </details>
  );
}

import type { ScopeQuery } from '@cloudtrim/contracts/scope';
import { SuggestField, useSearchText } from '../../../components/suggest-field';
import { useScopeOptions } from '../../../lib/scope-options';
import { readGuid, readTagQuery, toSuggestions } from '../utils/scope-suggestions';

interface ScopeFieldProps {
  value: string;
  onChange: (value: string) => void;
  isInvalid: boolean;
  tenantId: string;
  subscriptionId: string;
}

function ScopeSuggestField({
  value,
  onChange,
  isInvalid,
  query,
}: Omit<ScopeFieldProps, 'tenantId' | 'subscriptionId'> & { query: ScopeQuery }) {
  const options = useScopeOptions(query);
  return (
    <SuggestField
      value={value}
      onChange={onChange}
      isInvalid={isInvalid}
      suggestions={options.data ? toSuggestions(query, options.data.Items) : []}
    />
  );
}

/** A subscription of the chosen tenant, offered by display name; an id may still be typed. */
export function SubscriptionField(props: ScopeFieldProps) {
  const search = useSearchText(props.value);
  return (
    <ScopeSuggestField
      {...props}
      query={{
        kind: 'subscriptions',
        tenantId: props.tenantId || undefined,
        search: readGuid(search) ? undefined : search || undefined,
      }}
    />
  );
}

/** A resource group inventory has seen in the chosen tenant and subscription, or any typed name. */
export function ResourceGroupField(props: ScopeFieldProps) {
  const search = useSearchText(props.value);
  return (
    <ScopeSuggestField
      {...props}
      query={{
        kind: 'resourceGroups',
        tenantId: props.tenantId || undefined,
        subscriptionId: readGuid(props.subscriptionId),
        search: search || undefined,
      }}
    />
  );
}

/** NAME=VALUE: the tag keys seen, then the chosen key's values. */
export function TagField(props: ScopeFieldProps) {
  const search = useSearchText(props.value);
  return <ScopeSuggestField {...props} query={readTagQuery(search, props.tenantId, props.subscriptionId)} />;
}

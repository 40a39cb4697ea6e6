import { SuggestField, useSearchText } from '../../../components/suggest-field';
import { useScopeOptions } from '../../../lib/scope-options';
import { completeLastItem, readLastItem } from '../utils/scope-list';

interface ScopeListFieldProps {
  kind: 'subscriptions' | 'resourceGroups';
  value: string;
  onChange: (value: string) => void;
  /** The one tenant chosen, which narrows the offer; undefined: all of the team's. */
  tenantId: string | undefined;
  isInvalid: boolean;
}

/** Comma-separated subscriptions or resource groups, the one being typed offered from the estate. */
export function ScopeListField({ kind, value, onChange, tenantId, isInvalid }: ScopeListFieldProps) {
  const search = useSearchText(readLastItem(value));
  const options = useScopeOptions({ kind, tenantId, search: search || undefined });
  return (
    <SuggestField
      value={value}
      onChange={onChange}
      isInvalid={isInvalid}
      suggestions={options.data ? completeLastItem(value, options.data.Items) : []}
    />
  );
}

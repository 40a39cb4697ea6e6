import { SearchModal } from '../../features/search/components/search-modal';
import { AutomationView } from './automation-view';

interface ResourceSearchProps {
  isShown: boolean;
  onHide: () => void;
}

/** The top bar's search: the search feature's modal showing what it finds as the automation view. */
export function ResourceSearch({ isShown, onHide }: ResourceSearchProps) {
  return (
    <SearchModal
      isShown={isShown}
      onHide={onHide}
      renderResults={(resources, invalidates) => (
        <AutomationView resources={resources} invalidates={invalidates} />
      )}
    />
  );
}

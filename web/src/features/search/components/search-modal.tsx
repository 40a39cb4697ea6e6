import { useId, useState, type ReactNode } from 'react';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { noSearchResultsText } from '@cloudtrim/contracts/messages';
import type { AutomationResource } from '@cloudtrim/contracts/resources';
import { describeLoadError } from '../../../lib/load-failure';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { searchQueryKeys, useFindResources } from '../api/find-resources';
import { DataLoading } from '../../../components/data-loading';

// SPEC §9: the search waits for 600 ms of quiet typing.
const searchDebounceMs = 600;

/** Renders the resources found; `invalidates` is the search's query, to refresh after a change. */
export type RenderSearchResults = (
  resources: readonly AutomationResource[],
  invalidates: readonly unknown[],
) => ReactNode;

interface SearchModalProps {
  isShown: boolean;
  onHide: () => void;
  renderResults: RenderSearchResults;
}

function SearchResults({ search, renderResults }: { search: string; renderResults: RenderSearchResults }) {
  const results = useFindResources(search);
  if (search === '') return null;
  if (results.isPending) {
    return <DataLoading label="Searching" />;
  }
  if (results.isError) {
    return (
      <p className="text-danger mb-0" role="alert">
        {describeLoadError(results.error)}
      </p>
    );
  }
  if (results.data.length === 0) return <p className="data-empty">{noSearchResultsText(search)}</p>;
  return renderResults(results.data, searchQueryKeys.all);
}

/** The global resource search opened from the top bar. */
export function SearchModal({ isShown, onHide, renderResults }: SearchModalProps) {
  const titleId = useId();
  const [searchText, setSearchText] = useState('');
  const trimmedSearch = searchText.trim();
  const debouncedSearch = useDebouncedValue(trimmedSearch, searchDebounceMs);
  // Clearing the box clears the results at once; typing waits for the debounce.
  const search = trimmedSearch === '' ? '' : debouncedSearch;

  return (
    <Modal show={isShown} onHide={onHide} aria-labelledby={titleId} size="xl" fullscreen="lg-down">
      <Modal.Header closeButton>
        <Modal.Title as="h2" id={titleId}>
          Search
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <Form role="search" className="mb-3" onSubmit={(event) => event.preventDefault()}>
          <Form.Group controlId="global-search">
            <Form.Label visuallyHidden>Search resources</Form.Label>
            <Form.Control
              type="search"
              placeholder="Search resources by name"
              autoComplete="off"
              autoFocus
              value={searchText}
              onChange={(event) => setSearchText(event.target.value)}
            />
          </Form.Group>
        </Form>
        <SearchResults search={search} renderResults={renderResults} />
      </Modal.Body>
    </Modal>
  );
}

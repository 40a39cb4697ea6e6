import { useRef, type ChangeEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Spinner from 'react-bootstrap/Spinner';

interface ImportPipelineButtonProps {
  isPending: boolean;
  /** The chosen file's text. */
  onChoose: (yaml: string) => void;
}

/** IMPORT YAML: chooses a pipeline file from disk. */
export function ImportPipelineButton({ isPending, onChoose }: ImportPipelineButtonProps) {
  const input = useRef<HTMLInputElement>(null);

  async function onChange(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    // The same file chosen again after a fix must fire a change too.
    event.target.value = '';
    if (file) onChoose(await file.text());
  }

  return (
    <>
      <input
        ref={input}
        type="file"
        accept=".yaml,.yml,application/yaml,text/yaml"
        className="visually-hidden"
        tabIndex={-1}
        aria-label="Pipeline file to import"
        onChange={(event) => void onChange(event)}
      />
      <Button variant="outline-primary" size="sm" disabled={isPending} onClick={() => input.current?.click()}>
        {isPending ? (
          <Spinner as="span" animation="border" size="sm" className="me-2" aria-hidden="true" />
        ) : null}
        IMPORT YAML
      </Button>
    </>
  );
}

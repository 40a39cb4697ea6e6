// Pipelines as code: a definition written out as YAML, and a file read back, its fault named by line
// and field (the contract's own messages) so nothing half-read is ever saved.
import { pipelineDefinitionSchema, type PipelineDefinition } from '@cloudtrim/contracts/pipelines';
import { LineCounter, parseDocument, stringify, type Document } from 'yaml';

export interface PipelineFileFault {
  message: string;
  line: number;
  field?: string;
}

export type PipelineFileRead = { definition: PipelineDefinition } | { fault: PipelineFileFault };

export function writePipelineYaml(definition: PipelineDefinition, schemaUrl: string): string {
  return `# yaml-language-server: $schema=${schemaUrl}\n${stringify(definition)}`;
}

export function readPipelineYaml(text: string): PipelineFileRead {
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const syntaxError = document.errors[0];
  if (syntaxError) {
    return {
      fault: {
        message: `The file is not valid YAML: ${syntaxError.message.split('\n')[0]}`,
        line: lineCounter.linePos(syntaxError.pos[0]).line,
      },
    };
  }
  const result = pipelineDefinitionSchema.safeParse(document.toJS());
  if (result.success) return { definition: result.data };
  const issue = result.error.issues[0]!;
  const path = issue.path.map((part) => (typeof part === 'number' ? part : String(part)));
  return {
    fault: {
      message: issue.message,
      field: path.join('.') || undefined,
      line: findLine(document, path, lineCounter),
    },
  };
}

// The line of the field at fault, or of the nearest enclosing one that is there (a missing field is
// reported where its parent starts).
function findLine(document: Document, path: (string | number)[], lineCounter: LineCounter): number {
  for (let length = path.length; length >= 0; length -= 1) {
    const node = length === 0 ? document.contents : document.getIn(path.slice(0, length), true);
    const range = (node as { range?: [number, number, number] } | undefined)?.range;
    if (range) return lineCounter.linePos(range[0]).line;
  }
  return 1;
}

// Pipelines as code: a definition written out as YAML, and a file read back, its fault named by line
// and field (the contract's own messages) so nothing half-read is ever saved.
import { pipelineDefinitionSchema, type PipelineDefinition } from '@cloudtrim/contracts/pipelines';
import { LineCounter, parseDocument, stringify, visit, type Document } from 'yaml';

// A pipeline is a few dozen lines: a file past these is refused before it is read into objects, so
// an alias bomb (each alias doubling the last) or a huge document costs milliseconds, not memory.
export const pipelineFileMaxChars = 100_000;
export const pipelineFileMaxAliases = 20;

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
  if (text.length > pipelineFileMaxChars) {
    return {
      fault: {
        message: `A pipeline file must be at most ${pipelineFileMaxChars} characters.`,
        line: text.slice(0, pipelineFileMaxChars + 1).split('\n').length,
      },
    };
  }
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
  const aliasFault = findAliasFault(document, lineCounter);
  if (aliasFault) return { fault: aliasFault };
  let value: unknown;
  try {
    value = document.toJS({ maxAliasCount: pipelineFileMaxAliases });
  } catch (error) {
    // What the parser refuses to build (an alias to nothing, a merge of a scalar): the document's
    // fault, never the server's.
    return {
      fault: {
        message: `The file cannot be read: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`,
        line: 1,
      },
    };
  }
  const result = pipelineDefinitionSchema.safeParse(value);
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

// The alias past the allowed count, by line: a definition needs few, a bomb needs many.
function findAliasFault(document: Document, lineCounter: LineCounter): PipelineFileFault | undefined {
  let aliases = 0;
  let fault: PipelineFileFault | undefined;
  visit(document, {
    Alias(_key, node) {
      aliases += 1;
      if (aliases <= pipelineFileMaxAliases) return undefined;
      fault = {
        message: `A pipeline file may use at most ${pipelineFileMaxAliases} aliases.`,
        line: node.range ? lineCounter.linePos(node.range[0]).line : 1,
      };
      return visit.BREAK;
    },
  });
  return fault;
}

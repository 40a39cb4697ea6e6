import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { apiHeapFlags, backgroundHeapFlags } from './heap';

const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

// The heap is given on the command line that starts a process, so the commands an operator copies
// must say what heap.ts says.
describe('the heap flags of the commands that start Cloudtrim', () => {
  it('are the README scale-out commands and `npm start`’s', async () => {
    const readme = await readFile(path.join(repositoryRoot, 'README.md'), 'utf8');
    expect(readme).toContain(
      `ROLE=worker node ${backgroundHeapFlags.join(' ')} --import tsx server/src/main.ts`,
    );
    expect(readme).toMatch(
      new RegExp(`ROLE=api .*node ${apiHeapFlags.join(' ')} --import tsx server/src/main.ts`),
    );
    const start = await readFile(path.join(repositoryRoot, 'scripts/start.mjs'), 'utf8');
    expect(start).toContain(
      `[${[...apiHeapFlags, '--import', 'tsx', 'server/src/main.ts'].map((flag) => `'${flag}'`).join(', ')}]`,
    );
  });
});

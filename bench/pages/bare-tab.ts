// A Chromium tab driven over the DevTools protocol's pipe with only its Page and Runtime domains on.
// Playwright's and Lighthouse's tabs also turn the Network domain on, and DevTools then keeps a copy of
// every answer's body for its Network panel, on the page's own thread: for the 15.8 MB Cloud
// Resources answer of a 10,000-VM estate, 40 to 60 ms between the answer's arrival and the first
// rows, which a user's browser, with no DevTools attached, does not spend.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';

export interface BareTab {
  /** Runs `source` in every document the tab opens from now on, before the page's own scripts. */
  addInitScript(source: string): Promise<void>;
  navigate(url: string): Promise<void>;
  /** The value of a JavaScript expression in the page (awaited if it is a promise). */
  evaluate<Value>(expression: string): Promise<Value>;
  close(): Promise<void>;
}

interface ProtocolMessage {
  id?: number;
  result?: Record<string, unknown>;
  error?: { message: string };
}

export async function openBareTab(
  executablePath: string,
  viewport: { width: number; height: number },
): Promise<BareTab> {
  const profileDir = await mkdtemp(path.join(os.tmpdir(), 'cloudtrim-bench-bare-chromium-'));
  const chromium = spawn(
    executablePath,
    [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--remote-debugging-pipe',
      `--user-data-dir=${profileDir}`,
      `--window-size=${viewport.width},${viewport.height}`,
      'about:blank',
    ],
    { stdio: ['ignore', 'ignore', 'ignore', 'pipe', 'pipe'] },
  );
  const toBrowser = chromium.stdio[3] as Writable;
  const fromBrowser = chromium.stdio[4] as Readable;
  const waiting = new Map<number, { resolve: (message: ProtocolMessage) => void }>();
  let nextId = 0;
  let buffered = '';
  // Messages are JSON texts, each ended by a NUL character.
  fromBrowser.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('utf8');
    let end = buffered.indexOf('\0');
    while (end >= 0) {
      const message = JSON.parse(buffered.slice(0, end)) as ProtocolMessage;
      buffered = buffered.slice(end + 1);
      if (message.id !== undefined) waiting.get(message.id)?.resolve(message);
      waiting.delete(message.id ?? -1);
      end = buffered.indexOf('\0');
    }
  });

  async function send(method: string, params: object = {}, sessionId?: string) {
    nextId += 1;
    const id = nextId;
    const answer = new Promise<ProtocolMessage>((resolve) => waiting.set(id, { resolve }));
    toBrowser.write(`${JSON.stringify({ id, method, params, sessionId })}\0`);
    const message = await answer;
    if (message.error) throw new Error(`${method}: ${message.error.message}`);
    return message.result ?? {};
  }

  const { targetId } = await send('Target.createTarget', { url: 'about:blank' });
  const { sessionId } = (await send('Target.attachToTarget', { targetId, flatten: true })) as {
    sessionId: string;
  };
  await send('Page.enable', {}, sessionId);
  return {
    addInitScript: async (source) => {
      await send('Page.addScriptToEvaluateOnNewDocument', { source }, sessionId);
    },
    navigate: async (url) => {
      await send('Page.navigate', { url }, sessionId);
    },
    evaluate: async <Value>(expression: string) => {
      const result = (await send(
        'Runtime.evaluate',
        { expression, returnByValue: true, awaitPromise: true },
        sessionId,
      )) as { result?: { value?: Value }; exceptionDetails?: { text: string } };
      if (result.exceptionDetails) throw new Error(result.exceptionDetails.text);
      return result.result?.value as Value;
    },
    close: async () => {
      const exited = new Promise((resolve) => chromium.once('exit', resolve));
      chromium.kill();
      await exited;
      await rm(profileDir, { recursive: true, force: true });
    },
  };
}

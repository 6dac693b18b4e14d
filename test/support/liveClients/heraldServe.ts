/**
 * `herald serve` as a user runs it: the built CLI (`node <tree>/dist/cli.js serve`) on a free
 * port, its own stash folder and decisions file, forwarding to the scripted provider.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

const STARTUP_MS = 180_000;

export interface RunningHerald {
  /** The gateway's base URL (`http://127.0.0.1:<port>`). */
  readonly url: string;
  /** What the gateway printed, for the report when something failed. */
  readonly output: () => string;
  /** Stops the gateway (SIGTERM, then SIGKILL after 5 s) and waits for it to exit. */
  stop(): Promise<void>;
}

export interface HeraldSetup {
  /** The Herald tree whose `dist/cli.js` runs. */
  readonly tree: string;
  readonly providerUrl: string;
  readonly stashDir: string;
  readonly decisionsFile: string;
  readonly extraArgs?: readonly string[];
}

export async function startHerald(setup: HeraldSetup): Promise<RunningHerald> {
  const cli = path.join(setup.tree, 'dist', 'cli.js');
  if (!fs.existsSync(cli)) throw new Error(`Herald live bench: ${cli} does not exist; run \`npm run build\` in ${setup.tree} first`);
  const args = [cli, 'serve', '--port', '0', '--stash', setup.stashDir, '--decisions', setup.decisionsFile, '--anthropic-base-url', setup.providerUrl, '--openai-base-url', `${setup.providerUrl}/v1`, ...(setup.extraArgs ?? [])];
  const child: ChildProcess = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, HERALD_STASH_DIR: setup.stashDir } });
  let output = '';
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    // Generous: on a loaded machine loading the grammars and the shipped model takes a while.
    const timer = setTimeout(() => reject(new Error(`Herald live bench: herald serve did not start within ${STARTUP_MS / 1000} s:\n${output}`)), STARTUP_MS);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString('utf8');
      const match = /Herald gateway on (http:\/\/[^\s]+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!.replace(/\/$/, ''));
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Herald live bench: herald serve exited (${String(code)}) before listening:\n${output}`));
    });
  });
  return {
    url,
    output: () => output,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}

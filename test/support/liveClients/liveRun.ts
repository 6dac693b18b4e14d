/**
 * One task run by one client, one way: straight to the scripted provider, or through
 * `herald serve`. The workspace is rewritten at the same path before every run (so both ways
 * send the same bytes where Herald changes nothing) and the client gets a fresh home folder.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { TaskScript } from './agentScript';
import type { ClientRun, LiveClient } from './clients';
import { startHerald } from './heraldServe';
import { ScriptedProvider, type ProviderRecord } from './scriptedProvider';
import { writeWorkspace } from './workspace';

export type Way = 'direct' | 'herald';

/** One line of Herald's decisions file: the figures Herald reports for a turn. */
export interface HeraldTurn {
  readonly status: string;
  readonly api?: string;
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  readonly retrievals: number;
  readonly rounds?: number;
  readonly usage?: { readonly inputTokens?: number; readonly cacheReadTokens?: number; readonly cacheWriteTokens?: number; readonly outputTokens?: number };
}

export interface RunResult {
  readonly way: Way;
  readonly records: readonly ProviderRecord[];
  readonly client: ClientRun;
  /** Herald's record of each turn (through Herald only). */
  readonly turns: readonly HeraldTurn[];
  /** What herald serve printed (through Herald only). */
  readonly heraldOutput: string;
}

export interface RunOptions {
  readonly client: LiveClient;
  readonly binary: string;
  readonly task: TaskScript;
  readonly tasks: readonly TaskScript[];
  readonly way: Way;
  /** Scratch folder of the whole bench (the workspace and homes live under it). */
  readonly scratch: string;
  /** The Herald tree whose built CLI serves. */
  readonly tree: string;
  readonly heraldArgs?: readonly string[];
  readonly timeoutMs: number;
  /** Whether the scripted agent retrieves the first marker of a session (default) or never. */
  readonly agentRetrieves?: 'first' | 'never';
}

export async function runTask(options: RunOptions): Promise<RunResult> {
  const workspace = path.join(options.scratch, 'ws');
  writeWorkspace(workspace);
  const runDir = path.join(options.scratch, 'runs', `${options.client.id}-${options.task.id}-${options.way}`);
  fs.rmSync(runDir, { recursive: true, force: true });
  const home = path.join(runDir, 'home');
  fs.mkdirSync(home, { recursive: true });
  const provider = new ScriptedProvider({ tasks: options.tasks, workspace, ...(options.agentRetrieves ? { retrieves: options.agentRetrieves } : {}) });
  await provider.listen();
  const decisionsFile = path.join(runDir, 'decisions.jsonl');
  const herald =
    options.way === 'herald'
      ? await startHerald({ tree: options.tree, providerUrl: provider.url(), stashDir: path.join(runDir, 'stash'), decisionsFile, ...(options.heraldArgs ? { extraArgs: options.heraldArgs } : {}) }).catch(async (error: unknown) => {
          await provider.close();
          throw error;
        })
      : undefined;
  let client: ClientRun;
  try {
    client = await options.client.run({ binary: options.binary, baseUrl: herald?.url ?? provider.url(), workspace, home, prompt: options.task.prompt, timeoutMs: options.timeoutMs });
  } finally {
    await herald?.stop();
    await provider.close();
  }
  const turns = fs.existsSync(decisionsFile) ? readTurns(decisionsFile) : [];
  fs.writeFileSync(path.join(runDir, 'provider-records.json'), JSON.stringify(provider.records));
  fs.writeFileSync(path.join(runDir, 'client-output.txt'), `exit ${String(client.exitCode)}${client.timedOut ? ' (timed out)' : ''}\n--- stdout\n${client.stdout}\n--- stderr\n${client.stderr}\n--- herald\n${herald?.output() ?? ''}`);
  return { way: options.way, records: provider.records, client, turns, heraldOutput: herald?.output() ?? '' };
}

function readTurns(file: string): HeraldTurn[] {
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim().length > 0)
    .map((line) => JSON.parse(line) as HeraldTurn);
}

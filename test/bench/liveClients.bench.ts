/**
 * The real agent CLIs through Herald, priced as the provider bills (issue 24): Claude Code
 * (Anthropic Messages), Codex (OpenAI Responses) and Qwen Code (Chat Completions), installed
 * from npm at pinned versions into a cache folder outside the repository's dependencies, driven
 * non-interactively in a scratch workspace against a scripted provider on loopback
 * (test/support/liveClients), each task run twice: straight to the provider, and through
 * `herald serve` (the built CLI of HERALD_LIVE_TREE, default this tree: run `npm run build`
 * first). The provider bills every request with the cache model of
 * `src/core/costs/cacheBilling.ts` and returns that as its usage.
 *
 * Per task: requests (every round of every turn), billed input tokens both ways, cached cost
 * both ways under the provider's own cache rule and under the other one, whether the task
 * completed the same way (same tool calls, same final answer), and Herald's own figures per
 * turn against the provider's usage for that turn. Not part of `npm test`: it installs from npm.
 *
 * HERALD_LIVE_CLIENTS=claude-code,codex,qwen-code picks clients; HERALD_LIVE_TASKS=id,… tasks;
 * HERALD_LIVE_SET=tuning|held-out one half; HERALD_LIVE_HERALD_ARGS extra `herald serve`
 * arguments (space-separated); HERALD_LIVE_KEEP=1 keeps the scratch folder (request bodies,
 * decisions, client output) and prints where; HERALD_LIVE_CLIENTS_CACHE the install cache;
 * HERALD_LIVE_AGENT_RETRIEVES=never makes the scripted agent do without the originals (by default
 * it retrieves the first marker of every session: the worst case, one whole request resent);
 * HERALD_LIVE_ATTEMPTS (default 3) how often a task runs both ways again when the client's own
 * tool outputs were not alike (Qwen Code's shell sometimes prints nothing): the first alike pair
 * is reported, with its attempt.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { defaultTokenCounter } from '../../src/core/tokens/tokenCounter';
import type { TaskScript } from '../support/liveClients/agentScript';
import { installClient, LIVE_CLIENTS, type LiveClient } from '../support/liveClients/clients';
import { HELD_OUT_TASKS } from '../support/liveClients/heldOutTasks';
import { taskFigures, type TaskFigures } from '../support/liveClients/liveReport';
import { runTask } from '../support/liveClients/liveRun';
import { TUNING_TASKS } from '../support/liveClients/tasks';
import type { BenchReport } from './run';

/** Whether the scripted agent retrieves the first marker of a session (the worst case, default) or never. */
function agentRetrieves(): 'first' | 'never' {
  const value = process.env.HERALD_LIVE_AGENT_RETRIEVES ?? 'first';
  if (value !== 'first' && value !== 'never') throw new Error(`Herald live bench: HERALD_LIVE_AGENT_RETRIEVES is first or never, not "${value}"`);
  return value;
}

const TIMEOUT_MS = { short: 240_000, long: 900_000 } as const;

function pct(value: number): string {
  return `${value >= 0 ? '+' : '−'}${Math.abs(value * 100).toFixed(1)}%`;
}

function int(value: number): string {
  return Math.round(value).toLocaleString('en-US');
}

function pick<T extends { id: string }>(items: readonly T[], wanted: string | undefined, what: string): T[] {
  if (!wanted) return [...items];
  const names = wanted.split(',').map((name) => name.trim()).filter(Boolean);
  const unknown = names.filter((name) => !items.some((item) => item.id === name));
  if (unknown.length > 0) throw new Error(`Herald live bench: unknown ${what} ${unknown.join(', ')} (known: ${items.map((item) => item.id).join(', ')})`);
  return items.filter((item) => names.includes(item.id));
}

function lineOf(figures: TaskFigures): string[] {
  const { direct, herald, heraldTurns } = figures;
  const completed = (way: typeof direct): string => (way.timedOut ? 'timed out' : way.exitCode === 0 ? '' : `exit ${String(way.exitCode)}`);
  const problems = [completed(direct) && `direct ${completed(direct)}`, completed(herald) && `herald ${completed(herald)}`].filter(Boolean).join(', ');
  return [
    `${figures.client} ${figures.task} (${figures.set}, ${figures.length}): requests ${direct.requests} → ${herald.requests} (${herald.retrievals} retrieval rounds, their requests ${int(herald.retrieveCost)} of Herald's cached cost; side requests ${direct.sideRequests} → ${herald.sideRequests})${problems ? ` [${problems}]` : ''}`,
    `  input tokens ${int(direct.inputTokens)} → ${int(herald.inputTokens)} (${pct(figures.inputTokensChange)}); cached cost, ${figures.ownRule} (the provider's): ${int(direct.cachedCost)} → ${int(herald.cachedCost)} (${pct(figures.cachedCostChange)}); ${figures.otherRule}: ${int(direct.cachedCostOtherRule)} → ${int(herald.cachedCostOtherRule)} (${pct(figures.cachedCostOtherRuleChange)})`,
    `  completed the same way: calls ${figures.sameCalls ? 'same' : `DIFFER (${direct.calls.length} vs ${herald.calls.length} steps)`}, answer ${figures.sameAnswer ? 'same' : `DIFFERS (direct "${direct.finalText.slice(0, 80)}", herald "${herald.finalText.slice(0, 80)}")`}, the client's own outputs ${figures.clientOutputsDiffer === undefined ? `alike${(figures.attempts ?? 1) > 1 ? ` (on attempt ${figures.attempts}: the client ran differently before)` : ''}` : `NOT ALIKE after ${figures.attempts ?? 1} attempt(s) (${figures.clientOutputsDiffer}): the client ran differently, so this task's comparison is not like for like`}`,
    `  Herald's figures per turn (${heraldTurns.turns} turns${heraldTurns.paired ? '' : ', rounds do not add up to the provider\'s requests'}): tokensAfter within 2% of the provider's usage on ${heraldTurns.tokensAfterWithin2} (median ${(heraldTurns.tokensAfterMedian * 100).toFixed(1)}%, worst ${(heraldTurns.tokensAfterWorst * 100).toFixed(1)}%), its recorded usage on ${heraldTurns.usageWithin2} (worst ${Number.isFinite(heraldTurns.usageWorst) ? `${(heraldTurns.usageWorst * 100).toFixed(1)}%` : 'no usage recorded'})`,
  ];
}

/** Sums per client and set: the change of the sums, and the worst task. */
function summaryLines(all: readonly TaskFigures[]): string[] {
  const lines: string[] = [];
  for (const client of [...new Set(all.map((figures) => figures.client))]) {
    for (const set of ['tuning', 'held-out'] as const) {
      for (const length of ['short', 'long'] as const) {
        const group = all.filter((figures) => figures.client === client && figures.set === set && figures.length === length);
        if (group.length === 0) continue;
        const sum = (pickValue: (figures: TaskFigures) => number): number => group.reduce((total, figures) => total + pickValue(figures), 0);
        const tokens = sum((figures) => figures.herald.inputTokens) / sum((figures) => figures.direct.inputTokens) - 1;
        const cost = sum((figures) => figures.herald.cachedCost) / sum((figures) => figures.direct.cachedCost) - 1;
        const other = sum((figures) => figures.herald.cachedCostOtherRule) / sum((figures) => figures.direct.cachedCostOtherRule) - 1;
        const worst = Math.max(...group.map((figures) => figures.cachedCostChange));
        lines.push(`${client}, ${set}, ${length} (${group.length} tasks): tokens ${pct(tokens)}, cached cost ${pct(cost)} (worst task ${pct(worst)}), other rule ${pct(other)}; same calls ${group.filter((figures) => figures.sameCalls).length}/${group.length}, same answer ${group.filter((figures) => figures.sameAnswer).length}/${group.length}, client outputs alike ${group.filter((figures) => figures.clientOutputsDiffer === undefined).length}/${group.length}`);
      }
    }
  }
  return lines;
}

function commitOf(tree: string): string {
  try {
    return execFileSync('git', ['-C', tree, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
}

export async function bench(): Promise<BenchReport> {
  const clients: LiveClient[] = pick(LIVE_CLIENTS, process.env.HERALD_LIVE_CLIENTS, 'client');
  const set = process.env.HERALD_LIVE_SET;
  if (set !== undefined && set !== 'tuning' && set !== 'held-out') throw new Error(`Herald live bench: HERALD_LIVE_SET is tuning or held-out, not "${set}"`);
  const allTasks: readonly TaskScript[] = [...TUNING_TASKS, ...HELD_OUT_TASKS];
  const tasks = pick(allTasks, process.env.HERALD_LIVE_TASKS, 'task').filter((task) => set === undefined || task.set === set);
  const tree = path.resolve(process.env.HERALD_LIVE_TREE ?? path.join(__dirname, '..', '..'));
  const heraldArgs = process.env.HERALD_LIVE_HERALD_ARGS?.split(' ').filter(Boolean);
  const retrieves = agentRetrieves();
  const attempts = Number(process.env.HERALD_LIVE_ATTEMPTS ?? 3);
  if (!Number.isInteger(attempts) || attempts < 1) throw new Error(`Herald live bench: HERALD_LIVE_ATTEMPTS is a whole number from 1, not "${process.env.HERALD_LIVE_ATTEMPTS}"`);
  // Every client is installed before anything runs: one that cannot be fails the bench with npm's reason.
  const binaries = new Map(clients.map((client) => [client.id, installClient(client)] as const));
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-live-'));
  const count = (text: string): number => defaultTokenCounter.count(text);
  const results: TaskFigures[] = [];
  const failures: { client: string; task: string; error: string }[] = [];
  const lines: string[] = [`Herald tree ${tree} at ${commitOf(tree)}${heraldArgs ? `, serve ${heraldArgs.join(' ')}` : ''}; the agent retrieves ${retrieves === 'first' ? 'the first marker of a session' : 'nothing'}; clients ${clients.map((client) => `${client.packageName}@${client.version}`).join(', ')}`];
  try {
    for (const client of clients) {
      for (const task of tasks) {
        const common = { client, binary: binaries.get(client.id)!, task, tasks: allTasks, scratch, tree, timeoutMs: TIMEOUT_MS[task.length], agentRetrieves: retrieves, ...(heraldArgs ? { heraldArgs } : {}) };
        let figures: TaskFigures | undefined;
        let attempt = 0;
        try {
          // A pair in which the client itself ran differently (its tool printed another output) is
          // no comparison of Herald: both ways run again, up to the attempts allowed, and the line says so.
          while (attempt < attempts && (figures === undefined || figures.clientOutputsDiffer !== undefined)) {
            attempt++;
            const direct = await runTask({ ...common, way: 'direct' });
            const herald = await runTask({ ...common, way: 'herald' });
            figures = { ...taskFigures(client, task, direct, herald, count), attempts: attempt };
            if (figures.clientOutputsDiffer !== undefined && attempt < attempts && process.env.HERALD_LIVE_PROGRESS !== '0') console.error(`${client.id} ${task.id}: the client ran differently (${figures.clientOutputsDiffer}); both ways again (attempt ${attempt + 1} of ${attempts})`);
          }
        } catch (error) {
          // One run that cannot happen (herald serve not starting, say) is reported; the others still run.
          const message = error instanceof Error ? error.message : String(error);
          failures.push({ client: client.id, task: task.id, error: message });
          lines.push(`${client.id} ${task.id}: FAILED: ${message.split('\n')[0]}`);
          if (process.env.HERALD_LIVE_PROGRESS !== '0') console.error(`${client.id} ${task.id}: FAILED: ${message}`);
          continue;
        }
        if (figures === undefined) continue;
        results.push(figures);
        const taskLines = lineOf(figures);
        lines.push(...taskLines);
        if (process.env.HERALD_LIVE_PROGRESS !== '0') console.error(taskLines.join('\n'));
      }
    }
  } finally {
    if (process.env.HERALD_LIVE_KEEP) lines.push(`scratch kept at ${scratch}`);
    else fs.rmSync(scratch, { recursive: true, force: true });
  }
  lines.push('', ...summaryLines(results));
  if (failures.length > 0) {
    lines.push(`${failures.length} task(s) could not be run both ways (see the FAILED lines); the bench exits non-zero`);
    process.exitCode = 1;
  }
  return {
    title: 'Live clients through herald serve, priced as the provider bills',
    lines,
    figures: {
      tree,
      commit: commitOf(tree),
      clients: Object.fromEntries(clients.map((client) => [client.id, `${client.packageName}@${client.version}`])),
      tasks: results,
      failures,
    },
  };
}

/**
 * Speed work must not change a byte of what the pipeline hands back. This bench replays real
 * sessions request by request through the default pipeline (one pipeline, stash and token counter
 * per session, as a host runs them) and writes a SHA-256 of every result: the optimized request,
 * its elision sites, the token figures and every decision but its time. Together they are the
 * digest of the whole replay.
 *
 * `HERALD_OUTPUT_BASELINE=<file>` compares with the digests an earlier run wrote (to
 * bench-results/outputDigests.json): the bench then names the first requests that differ and
 * fails the run. So a speed change is proved by running this on the code before it, keeping
 * the file, and running it again after. `HERALD_OUTPUT_SESSIONS` caps the sessions per group
 * (default 10 Copilot-shaped and 20 trajectories; every Claude Code session and the export).
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Pipeline, type PipelineResult } from '../../src/core/pipeline';
import { MemoryBlobStore, Stash } from '../../src/core/stash';
import { createStrategies } from '../../src/core/strategies';
import { TokenCounter } from '../../src/core/tokens';
import { CLIENT_GROUPS, sessionsOf, type ClientGroup } from '../support/clients';
import { hasSharedData } from '../support/sharedData';
import type { BenchReport } from './run';

/** Sessions replayed per group unless HERALD_OUTPUT_SESSIONS says otherwise. */
const DEFAULT_SESSIONS: Readonly<Record<ClientGroup, number>> = {
  'copilot-export': Infinity,
  'copilot-shaped': 10,
  'claude-code-long': Infinity,
  'claude-code-short': Infinity,
  trajectories: 20,
};

/** Everything a run hands back but the time it took. */
export function resultDigest(result: PipelineResult): string {
  const decisions = result.decisions.map(({ durationMs: _durationMs, ...rest }) => rest);
  const { durationMs: _durationMs, decisions: _decisions, ...rest } = result;
  return createHash('sha256').update(JSON.stringify({ ...rest, decisions })).digest('hex');
}

export async function bench(): Promise<BenchReport> {
  const title = 'Output identity: a digest of every optimized request over real replays';
  if (!hasSharedData()) return { title, lines: ['skipped: ../shared/data is absent'] };
  const cap = process.env.HERALD_OUTPUT_SESSIONS ? Number(process.env.HERALD_OUTPUT_SESSIONS) : undefined;
  const digests: Record<string, string> = {};
  const lines: string[] = [];
  const total = createHash('sha256');
  for (const group of CLIENT_GROUPS) {
    const sessions = sessionsOf(group, cap ?? DEFAULT_SESSIONS[group]).slice(0, cap ?? DEFAULT_SESSIONS[group]);
    let requests = 0;
    for (const session of sessions) {
      const tokens = new TokenCounter(200_000);
      const stash = new Stash({ store: new MemoryBlobStore(), key: new Uint8Array(32) });
      const pipeline = new Pipeline(createStrategies(), {}, { stash, tokens });
      for (const [index, entry] of session.requests.entries()) {
        const digest = resultDigest(await pipeline.run(entry.request));
        digests[`${group}/${session.name}/${index}`] = digest;
        total.update(digest);
        requests++;
      }
    }
    lines.push(`${group}: ${sessions.length} sessions, ${requests} requests`);
  }
  const outDir = path.resolve(__dirname, '..', '..', 'bench-results');
  fs.mkdirSync(outDir, { recursive: true });
  fs.writeFileSync(path.join(outDir, 'outputDigests.json'), JSON.stringify(digests, null, 1));
  const digest = total.digest('hex');
  lines.push(`digest of all ${Object.keys(digests).length} results: ${digest} (each in bench-results/outputDigests.json)`);
  const baselineFile = process.env.HERALD_OUTPUT_BASELINE;
  let differing: string[] = [];
  if (baselineFile) {
    const baseline = JSON.parse(fs.readFileSync(baselineFile, 'utf8')) as Record<string, string>;
    const keys = new Set([...Object.keys(baseline), ...Object.keys(digests)]);
    differing = [...keys].filter((key) => baseline[key] !== digests[key]);
    lines.push(differing.length === 0 ? `identical to ${baselineFile}: all ${keys.size} results` : `DIFFERENT from ${baselineFile}: ${differing.length} of ${keys.size} results, first ${differing.slice(0, 5).join(', ')}`);
    if (differing.length > 0) process.exitCode = 1;
  }
  return { title, lines, figures: { results: Object.keys(digests).length, digest, differing: differing.length } };
}

/**
 * An optimizer warmed before its first request: one throwaway run of the pipeline over a sample
 * session loads what the strategies load on first use (the tokenizer's tables, parser grammars,
 * the relevance model) and lets the JIT see the hot paths, so a session's first request is not
 * the one that pays for it. The gateway's workers run it before the gateway listens (a cold
 * first request on a loaded machine ran past the deadline and went out unoptimized, and the
 * session kept the client's tools block for good); the extension runs it shortly after it starts.
 *
 * The run writes nowhere: its own in-memory stash under a random key, no memo, no session
 * state, no store. It cannot fail its host: any error is returned for a log line.
 */
import { randomBytes } from 'node:crypto';
import { parseRequest } from '../chat';
import { describeError } from '../errors';
import { Pipeline, type PipelineConfig } from './pipeline';
import type { Strategy, TargetKind } from './types';
import { MemoryBlobStore, Stash } from '../stash';
import type { TokenCounter } from '../tokens/tokenCounter';

/** Long enough for a cold start on a loaded machine (the gateway's warm-up runs before it listens). */
const WARM_UP_DEADLINE_MS = 60_000;

/** What the warm-up took, or why it could not run. */
export type WarmUpOutcome = { readonly ok: true; readonly ms: number } | { readonly ok: false; readonly error: string };

export async function warmUp(strategies: readonly Strategy[], config: PipelineConfig, tokens: TokenCounter, body: Record<string, unknown>, targetKind?: TargetKind): Promise<WarmUpOutcome> {
  const started = performance.now();
  try {
    const stash = new Stash({ store: new MemoryBlobStore(), key: new Uint8Array(randomBytes(32)) });
    const pipeline = new Pipeline(strategies, { ...config, deadlineMs: Math.max(config.deadlineMs ?? 0, WARM_UP_DEADLINE_MS) }, { stash, tokens });
    await pipeline.run(parseRequest(body), targetKind ? { targetKind } : {});
    return { ok: true, ms: performance.now() - started };
  } catch (error) {
    return { ok: false, error: describeError(error) };
  }
}

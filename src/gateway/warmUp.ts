/**
 * A gateway's optimizer warmed before it takes requests: one throwaway run of the pipeline over
 * a sample session loads what the strategies load on first use (the tokenizer's tables, parser
 * grammars, the relevance model) and lets the JIT see the hot paths, so a session's first
 * request is not the one that pays for it (a cold first request on a loaded machine ran past
 * the deadline and went out unoptimized, and the session kept the client's tools block for good).
 *
 * The run writes nowhere: its own in-memory stash under a random key, no memo, no session
 * state, no store. It cannot fail the gateway: any error is returned for a log line.
 */
import { randomBytes } from 'node:crypto';
import { parseRequest } from '../core/chat';
import { describeError } from '../core/errors';
import { Pipeline, type PipelineConfig } from '../core/pipeline/pipeline';
import type { Strategy, TargetKind } from '../core/pipeline/types';
import { MemoryBlobStore, Stash } from '../core/stash';
import type { TokenCounter } from '../core/tokens/tokenCounter';

/** Long enough for a cold start on a loaded machine; the warm-up runs before the gateway listens. */
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

/**
 * Helpers for the strategies' tests (imported by `*.test.ts` only): run strategies through
 * the real pipeline turn by turn, as a host would, and replay real trajectories.
 */
import { parseRequest } from '../../src/core/chat/convert';
import type { ChatRequest } from '../../src/core/chat/types';
import { Pipeline, type PipelineResult } from '../../src/core/pipeline/pipeline';
import { CACHED_REWRITE_MIN_SAVED_SHARE } from '../../src/core/pipeline/cacheEconomics';
import type { Strategy } from '../../src/core/pipeline/types';
import { MemoryBlobStore } from '../../src/core/stash/blobStore';
import { Stash } from '../../src/core/stash/stash';
import { TokenCounter } from '../../src/core/tokens/tokenCounter';

const sharedTokens = new TokenCounter(50_000);

export interface TestRig {
  readonly pipeline: Pipeline;
  readonly stash: Stash;
  readonly tokens: TokenCounter;
  /** Runs one wire body (OpenAI or Anthropic) through the pipeline. */
  run(body: unknown): Promise<PipelineResult & { input: ChatRequest }>;
}

/**
 * A pipeline of the given strategies over an in-memory stash with a fixed key. Rewrites of
 * cached history are held to the fixed share (`cachedRewriteMinSavedShare`), so a strategy's
 * test sees the strategy's own choices in its short conversations, not the session-length
 * pricing (tested in test/unit/pipeline/cacheEconomics.test.ts).
 */
export function createRig(strategies: readonly Strategy[], options: Readonly<Record<string, Readonly<Record<string, unknown>>>> = {}): TestRig {
  const stash = new Stash({ store: new MemoryBlobStore(), key: new Uint8Array(32).fill(7) });
  const pipeline = new Pipeline(strategies, { options, cachedRewriteMinSavedShare: CACHED_REWRITE_MIN_SAVED_SHARE }, { stash, tokens: sharedTokens });
  return {
    pipeline,
    stash,
    tokens: sharedTokens,
    async run(body) {
      const input = parseRequest(JSON.parse(JSON.stringify(body)));
      return { ...(await pipeline.run(input)), input };
    },
  };
}

/**
 * Every body a conversation produced, turn by turn: one ending before each assistant message,
 * then the whole conversation. `extra` holds the other top-level fields (Anthropic `system`).
 */
export function turnBodies(messages: readonly unknown[], extra: Readonly<Record<string, unknown>> = { model: 'gpt-4o' }): Record<string, unknown>[] {
  const bodies: Record<string, unknown>[] = [];
  messages.forEach((message, index) => {
    if (index > 0 && (message as { role?: unknown }).role === 'assistant') bodies.push({ ...extra, messages: messages.slice(0, index) });
  });
  bodies.push({ ...extra, messages: [...messages] });
  return bodies;
}

/** Runs every body in order through the rig; returns the last result. */
export async function runTurns(rig: TestRig, bodies: readonly unknown[]): Promise<PipelineResult & { input: ChatRequest }> {
  let last: (PipelineResult & { input: ChatRequest }) | undefined;
  for (const body of bodies) last = await rig.run(body);
  if (!last) throw new Error('Herald test kit: no bodies to run');
  return last;
}

/** A text of `count` numbered lines, like a file read with line numbers. */
export function numberedLines(count: number, label = 'value'): string {
  return Array.from({ length: count }, (_, index) => `${String(index + 1).padStart(4)}\tconst ${label}_${index + 1} = computeThing(${index * 7}, "${label}");`).join('\n');
}

/**
 * Throws when a decision carries any line (12+ characters) of the given prompt texts:
 * decisions are metadata only.
 */
export function assertNoPromptText(decisions: readonly unknown[], texts: readonly string[]): void {
  const serialized = JSON.stringify(decisions);
  for (const text of texts) {
    for (const line of text.split('\n')) {
      const probe = line.trim();
      if (probe.length >= 12 && serialized.includes(JSON.stringify(probe).slice(1, -1))) {
        throw new Error(`a decision carries prompt text: ${probe.slice(0, 60)}`);
      }
    }
  }
}

/** Per message, the text of its text parts and tool results (tool calls left out), so index = message index. */
export function partTexts(request: ChatRequest): string[] {
  return request.messages.map((message) =>
    message.parts
      .map((part) => (part.type === 'text' ? part.text : part.type === 'tool_result' ? part.content.map((inner) => (inner.type === 'text' ? inner.text : '')).join('') : ''))
      .join(''),
  );
}

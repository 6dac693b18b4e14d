/**
 * semantic_cache: answers an exact repeat from memory without calling the model. A hit needs
 * the same canonicalised scope, format, model and answer-shaping parameters and the same
 * messages and tools (by the digest of each one's JSON, worked out once per object);
 * transport-only fields (stream, metadata, …) do not count. Live answers are written back in
 * `afterResponse`.
 *
 * A repeat that arrives right after a cached answer was served is a retry (the person wants a
 * new answer): it goes to the model, and the new answer replaces the stored one. A stored answer
 * that calls a tool (an agent step) is served only with `serveToolCalls`: replayed, it repeats an
 * action the model chose for a state that may have changed since.
 *
 * The shadow lane measures how often a key with volatile values (timestamps, UUIDs, request
 * ids, temp paths, retry counters) normalised would have hit. It is measurement only: it never
 * serves anything, so it runs after the answer, off the request path (normalising a long
 * conversation cost a fifteenth of a cold decision). Each answered miss's normalised key is
 * checked against those of earlier answers, and the session's totals appear in the next decision.
 */
import type { z } from 'zod';
import { stripCacheHints } from '../chat/cacheHints';
import type { ChatMessage, ChatRequest } from '../chat/types';
import { createHash } from 'node:crypto';
import { canonicalJson, digestOf, jsonLengthOf, sequenceDigest, sha256 } from '../pipeline/hash';
import type { Strategy, StrategyContext, StrategyResult } from '../pipeline/types';
import { booleanOption, numberOption, stringOption } from './shared/optionReads';
import { MemoryResponseCache, type ResponseCacheStore } from './responseCache/responseCache';
import { normaliseVolatile } from './responseCache/volatileText';
import { answerCallsTool } from './responseCache/answerShape';
import { optionDefaults } from '../pipeline/optionSchema';
import { SEMANTIC_CACHE_OPTIONS } from './options/semanticCacheOptions';

export const SEMANTIC_CACHE_ID = 'semantic_cache';

/** Options of semantic_cache, as its schema in `options/` declares them (type, default, bounds, description). */
export type SemanticCacheOptions = Readonly<z.output<typeof SEMANTIC_CACHE_OPTIONS>>;

export const SEMANTIC_CACHE_DEFAULTS: SemanticCacheOptions = optionDefaults(SEMANTIC_CACHE_OPTIONS);

/** What the factory may be given. */
export interface SemanticCacheDependencies {
  /** Where answers are kept; a bounded in-memory cache when not given. */
  readonly store?: ResponseCacheStore;
  /** The clock, for tests. */
  readonly now?: () => number;
}

/** Fields that change how a request travels, not what the answer is. */
const TRANSPORT_FIELDS = new Set(['stream', 'stream_options', 'metadata', 'user', 'store', 'service_tier', 'prompt_cache_key', 'prompt_cache_retention', 'safety_identifier']);

/** A miss waiting for its live answer; kept in the session state between `apply` and `afterResponse`. */
interface PendingAnswer {
  readonly exact: string;
  /** Characters the shadow lane normalises; absent when it is off. */
  readonly shadowScanChars?: number;
  readonly scope: string;
  readonly maxResponseChars: number;
}

/** The shadow lane's totals for a session: answered misses measured, and how many a normalised key would have hit. */
interface ShadowTotals {
  readonly measured: number;
  readonly wouldHit: number;
}

const PENDING_KEY = 'pending';
const SERVED_KEY = 'served';
const SHADOW_KEY = 'shadow';
const MAX_PENDING = 8;

export function createSemanticCache(dependencies: SemanticCacheDependencies = {}): Strategy {
  const store = dependencies.store ?? new MemoryResponseCache();
  const now = dependencies.now ?? Date.now;
  return {
    id: SEMANTIC_CACHE_ID,
    defaultEnabled: true,
    kind: 'transform',
    defaults: SEMANTIC_CACHE_DEFAULTS,
    optionSchema: SEMANTIC_CACHE_OPTIONS,
    apply(request: ChatRequest, context: StrategyContext): StrategyResult {
      const scope = stringOption(context.options, SEMANTIC_CACHE_ID, 'scope');
      const ttlMs = numberOption(context.options, SEMANTIC_CACHE_ID, 'ttlMs', 0);
      const maxResponseChars = numberOption(context.options, SEMANTIC_CACHE_ID, 'maxResponseChars', 0);
      const shadowEnabled = booleanOption(context.options, SEMANTIC_CACHE_ID, 'shadowNormalized');
      const scanChars = numberOption(context.options, SEMANTIC_CACHE_ID, 'shadowMaxScanChars', 0);
      const serveToolCalls = booleanOption(context.options, SEMANTIC_CACHE_ID, 'serveToolCalls');
      const choices = request.options.n;
      if (typeof choices === 'number' && choices > 1) return { request, action: 'cache-bypassed', reason: 'several answers were asked for (n > 1)' };
      const exact = requestKey(context.original, scope);
      const entry = store.get(exact);
      const served = context.state.get<string[]>(SERVED_KEY) ?? [];
      // The same request again right after a cached answer is a person pressing "retry": let it through.
      const retry = served.includes(exact);
      const fresh = entry !== undefined && now() - entry.stored <= ttlMs;
      const agentStep = fresh && !serveToolCalls && answerCallsTool(entry.response);
      if (fresh && !retry && !agentStep) {
        context.state.set(SERVED_KEY, [...served, exact].slice(-MAX_PENDING));
        return { request, response: entry.response, action: 'response-served-from-cache', reason: 'an exact repeat of an answered request; the model was not called', details: { hit: true, ageMs: now() - entry.stored } };
      }
      if (retry) context.state.set(SERVED_KEY, served.filter((key) => key !== exact));
      const pending = (context.state.get<PendingAnswer[]>(PENDING_KEY) ?? []).filter((item) => item.exact !== exact);
      context.state.set(PENDING_KEY, [...pending, { exact, ...(shadowEnabled ? { shadowScanChars: scanChars } : {}), scope, maxResponseChars }].slice(-MAX_PENDING));
      const details: Record<string, string | number | boolean> = { hit: false, expired: entry !== undefined && now() - entry.stored > ttlMs, retry, agentStep, entries: store.size };
      const shadow = shadowEnabled ? context.state.get<ShadowTotals>(SHADOW_KEY) ?? { measured: 0, wouldHit: 0 } : undefined;
      if (shadow !== undefined) Object.assign(details, { shadowMeasured: shadow.measured, shadowWouldHit: shadow.wouldHit });
      return {
        request,
        action: retry || agentStep ? 'cache-bypassed' : 'cache-missed',
        reason: retry
          ? 'asked again right after a cached answer: treated as a retry and sent to the model'
          : agentStep
            ? 'an exact repeat, but the stored answer calls a tool (an agent step): sent to the model to decide again (serveToolCalls is off)'
            : shadow === undefined || shadow.measured === 0
              ? 'no exact repeat'
              : `no exact repeat; a normalised key would have hit ${shadow.wouldHit} of the session's ${shadow.measured} answered request(s) so far (measured after each answer, never served)`,
        details,
      };
    },
    afterResponse(request: ChatRequest, response: unknown, context): void {
      const pending = context.state.get<PendingAnswer[]>(PENDING_KEY) ?? [];
      if (pending.length === 0 || response === undefined || response === null) return;
      // The host may hand back the request as it arrived or as it was sent: match the first, else take the latest miss.
      const asArrived = pending.find((item) => requestKey(request, item.scope) === item.exact);
      const matched = asArrived ?? pending[pending.length - 1]!;
      context.state.set(PENDING_KEY, pending.filter((item) => item !== matched));
      // The shadow key is the request as it arrived, normalised: measured only when that is what came back.
      const shadow = asArrived?.shadowScanChars !== undefined ? shadowKey(request, asArrived.scope, asArrived.shadowScanChars) : undefined;
      if (shadow !== undefined) {
        const totals = context.state.get<ShadowTotals>(SHADOW_KEY) ?? { measured: 0, wouldHit: 0 };
        context.state.set(SHADOW_KEY, { measured: totals.measured + 1, wouldHit: totals.wouldHit + (store.hasShadow(shadow) ? 1 : 0) });
      }
      const size = canonicalJson(response).length;
      if (size > matched.maxResponseChars) {
        context.logger.info('semantic-cache-answer-too-large', `Herald: semantic_cache did not store an answer of ${size} characters`);
        return;
      }
      store.set(matched.exact, { response, stored: now() });
      if (shadow !== undefined) store.addShadow(shadow);
    },
  };
}

/** The canonical text of what shapes the answer besides the messages and tools: scope, format, model, answer-shaping options. */
function canonicalHead(request: ChatRequest, scope: string): string {
  const shaping: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(request.options)) if (!TRANSPORT_FIELDS.has(key)) shaping[key] = value;
  return canonicalJson({ scope, format: request.format, model: request.model ?? null, options: shaping });
}

/**
 * The key two requests must share to be the same question: the canonical head, then every
 * message (without the cache hints a client moves) and tool by the digest of its JSON, each
 * worked out once per object: the pipeline has already digested the messages as they arrived.
 * Keyed on the request as it arrived: its optimized form is a function of it (decide once).
 */
export function requestKey(request: ChatRequest, scope: string): string {
  return sha256(`${canonicalHead(request, scope)}\u0000${sequenceDigest(bareMessages(request))}\u0000${sequenceDigest(request.tools)}`);
}

function bareMessages(request: ChatRequest): ChatMessage[] {
  return request.messages.map((message) => stripCacheHints(message).bare);
}

/** Digests of messages' JSON with volatile values normalised, per object (measurement only). */
const normalisedDigests = new WeakMap<object, string>();

/** The same by the digest of the message's JSON: a client re-sends its history as new objects every turn. */
const normalisedByDigest = new Map<string, string>();
const MAX_NORMALISED = 20_000;

function normalisedDigest(message: object): string {
  const known = normalisedDigests.get(message);
  if (known !== undefined) return known;
  // Equal JSON normalises equally; the message's digest is worked out already (requestKey).
  const json = digestOf(message);
  let digest = normalisedByDigest.get(json);
  if (digest === undefined) {
    digest = sha256(normaliseVolatile(JSON.stringify(message)));
    normalisedByDigest.set(json, digest);
    if (normalisedByDigest.size > MAX_NORMALISED) normalisedByDigest.delete(normalisedByDigest.keys().next().value as string);
  }
  normalisedDigests.set(message, digest);
  return digest;
}

/** The shadow key: the head and the messages within the first `scanChars` characters normalised, the rest as they are. */
function shadowKey(request: ChatRequest, scope: string, scanChars: number): string {
  const hash = createHash('sha256');
  hash.update(normaliseVolatile(canonicalHead(request, scope)));
  let scanned = 0;
  for (const message of bareMessages(request)) {
    scanned += jsonLengthOf(message);
    hash.update(scanned <= scanChars ? normalisedDigest(message) : digestOf(message));
  }
  hash.update(sequenceDigest(request.tools));
  return hash.digest('hex');
}

/** The strategy contract: one small interface, every hook documented. */
import type { ChatRequest } from '../chat/types';
import type { Logger, ModelPort } from '../ports';
import type { Stash } from '../stash/stash';
import type { TokenCounter } from '../tokens/tokenCounter';
import type { SessionState } from './sessionState';
import type { OptionSchema } from './optionSchema';
import type { RewriteEconomics } from './cacheEconomics';

/**
 * How the target Herald's request flow forwards to bills, when the flow answers Herald's own
 * tools inside the turn: `endpoint`, by the token with prompt caching (an endpoint the user
 * configured, the gateway's upstream); `copilot-hosted`, per request (a Copilot-hosted model:
 * each request is a premium request; a model whose billing Herald does not know is treated so).
 */
export type TargetKind = 'copilot-hosted' | 'endpoint';

export interface StrategyContext {
  readonly stash: Stash;
  readonly tokens: TokenCounter;
  /** Messages before this index were decided on an earlier turn: read them, never change them. */
  readonly frozenCount: number;
  /**
   * Index of the first message of the current turn's fresh input (everything after the last
   * assistant message). Fresh input is left intact unless the strategy declares `touchesFresh`.
   */
  readonly freshStart: number;
  /** The request as it arrived, before any strategy ran (same message count and order). */
  readonly original: ChatRequest;
  /** This strategy's parameters, validated, defaults applied. */
  readonly options: Readonly<Record<string, unknown>>;
  /**
   * Least share of a history output's tokens a rewrite must remove: the provider has cached
   * the output as it stood, and the rewrite costs a cache write (see `PipelineConfig`).
   */
  readonly cachedRewriteMinSavedShare: number;
  /**
   * Prices a rewrite of a cached history message (the provider's cache, what follows it, the
   * session's expected length) and records the ones taken; absent outside a pipeline run, where
   * `cachedRewriteMinSavedShare` decides alone. See `cacheEconomics.ts`.
   */
  readonly rewrites?: RewriteEconomics;
  /** Per-session key/value pins (a decision taken once and replayed). */
  readonly state: SessionState;
  /** The target model's usable input budget in tokens, when known. */
  readonly windowTokens?: number;
  /** Where the flow forwards the request; undefined when no Herald flow does (the CLI's `optimize`). */
  readonly targetKind?: TargetKind;
  readonly logger: Logger;
  /** A language model, when the host has one and the configuration allows it. */
  readonly model?: ModelPort;
  /** Aborted when the strategy's time limit passes or the caller cancels. */
  readonly signal: AbortSignal;
}

export interface StrategyResult {
  /** The new request; return the input itself when nothing changed. Never mutate the input. */
  readonly request: ChatRequest;
  /** What happened, noun-then-verb: `tool-output-collapsed`, `nothing-to-do`. */
  readonly action: string;
  /** One line on why, with no prompt text in it. */
  readonly reason: string;
  /** Handles of everything this strategy stashed. */
  readonly handles?: readonly string[];
  /** Numbers and flags for reports (counts, scores); no prompt text. */
  readonly details?: Readonly<Record<string, string | number | boolean>>;
  /** A response to serve instead of calling the model (semantic_cache); ends the pipeline. */
  readonly response?: unknown;
  /** Marks the request as a control sample: every later mutating strategy is skipped. */
  readonly holdout?: boolean;
}

export interface Strategy {
  /** Stable id, as in the settings: `context_dedupe`. */
  readonly id: string;
  readonly defaultEnabled: boolean;
  /** `signal` strategies never change the request; they only emit a decision. */
  readonly kind?: 'transform' | 'signal';
  /** Allowed to rewrite the current turn's fresh input (output_externalize). */
  readonly touchesFresh?: boolean;
  /**
   * Its change to the fresh input is this request's annotation at the tail (a cache breakpoint,
   * an advisory note), not part of the messages' arrival form: the runner memoizes the fresh
   * input as it stood before it, so the message becomes history without it. Such strategies run last.
   */
  readonly annotatesTail?: boolean;
  /** Allowed to rewrite messages decided on an earlier turn (window_budget, when over budget). */
  readonly rewritesFrozen?: boolean;
  /** Parameter defaults; an option not named here is an error. */
  readonly defaults?: Readonly<Record<string, unknown>>;
  /**
   * The options declared once (type, default, bounds, description per field; see
   * `optionSchema.ts`): what a user sets is checked against it, and the manifest's settings
   * and the README's table are written from it. `defaults` then comes from it too.
   */
  readonly optionSchema?: OptionSchema;
  /** Look at one request; return a new one (never mutate the input) and what was done. */
  apply(request: ChatRequest, context: StrategyContext): Promise<StrategyResult> | StrategyResult;
  /** Called with the model's answer after a live call (semantic_cache writes it back). */
  afterResponse?(request: ChatRequest, response: unknown, context: Pick<StrategyContext, 'state' | 'logger'>): Promise<void> | void;
}

export type DecisionStatus = 'applied' | 'unchanged' | 'signal' | 'disabled' | 'skipped' | 'failed' | 'timeout' | 'rejected';

/** What one strategy did to one request. Metadata only: no prompt text unless content mode is on. */
export interface Decision {
  readonly strategy: string;
  readonly status: DecisionStatus;
  readonly action: string;
  readonly reason: string;
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  readonly durationMs: number;
  readonly handles: readonly string[];
  readonly details?: Readonly<Record<string, string | number | boolean>>;
}

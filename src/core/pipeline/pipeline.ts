/**
 * The runner: enabled strategies in a fixed order, a time limit each, failures isolated
 * (fail-open), inputs never mutated, and history messages decided once and replayed from the
 * memo so the unchanged prefix of the next turn comes out byte-identical.
 */
import { stripCacheHints } from '../chat/cacheHints';
import type { ChatMessage, ChatRequest } from '../chat/types';
import { silentLogger, type Logger, type ModelPort } from '../ports';
import type { Stash } from '../stash/stash';
import { TokenCounter } from '../tokens/tokenCounter';
import { batchGain, CACHED_REWRITE_MIN_SAVED_SHARE, FIRST_MARKER_DEFERRAL_REQUESTS, firstMarkerGain, RETRIEVAL_RISK, RewriteEconomics } from './cacheEconomics';
import { ElisionTracker, type MessageElisionSite, type RequestElisionSite } from './elisionSites';
import { freshStartOf } from './freshInput';
import { canonicalJson, sha256 } from './hash';
import { chainHashes, MessageMemo, ownKeyOf } from './messageMemo';
import { DigestCarry } from './digestCarry';
import { SessionStateStore } from './sessionState';
import { loadRunState, saveRunState } from './runState';
import type { Decision, Strategy, StrategyResult, TargetKind } from './types';
import { invalidResult } from './validate';
import { describeError } from '../errors';
import { checkOptionNames, checkOptions } from './optionSchema';
import { Deadline, DEFAULT_PIPELINE_DEADLINE_MS, isDeadlineExceeded, withDeadline } from './deadline';
import { PIPELINE_DEADLINE_ACTION, requestAsItCame } from './requestAsItCame';

export interface PipelineConfig {
  /** Strategy id → on/off; strategies not named use their `defaultEnabled`. */
  readonly enabled?: Readonly<Record<string, boolean>>;
  /** Strategy id → parameters; unknown ids or parameter names are errors. */
  readonly options?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  /** Longest a strategy may take, in ms. Default 5000. */
  readonly timeLimitMs?: number;
  /**
   * Longest the whole pipeline may take on one request, in ms (see `deadline.ts`). Past it the
   * strategy running is stopped and the request goes out as it came, with decisions saying so.
   * Default {@link DEFAULT_PIPELINE_DEADLINE_MS}, or `timeLimitMs` when that is longer (a caller
   * who lets one strategy take longer, say to start an OCR engine, lets the run take as long).
   */
  readonly deadlineMs?: number;
  /**
   * Least share (0–1) of a cached history output's tokens a rewrite must remove to pay for the
   * cache write it causes; 0 rewrites whatever saves a token. Unset (the default), a rewrite of
   * cached history is priced with the target provider's cache and the session's expected
   * length instead (see `cacheEconomics.ts`).
   */
  readonly cachedRewriteMinSavedShare?: number;
  /**
   * Price a session's first marker as certain to be retrieved, where the flow answers Herald's own
   * tools (see `cacheEconomics.ts`, `firstMarkerGain`): until one run's elisions together pay for
   * that retrieve round, they wait, and the history they would have touched stays undecided for a
   * later run. Short sessions then never pay a round they cannot repay; long ones save less, since
   * what waited is cached history by the time it pays. Default off: a marker is priced at the
   * usual retrieval risk.
   */
  readonly firstMarkerRound?: boolean;
  /**
   * Whose decided history this pipeline reads and writes (a gateway's tenant): the memo keys of
   * two scopes never meet, so a message decided for one is never replayed, markers and all, for
   * another. Unset: one scope, the keys as they always were.
   */
  readonly scope?: string;
}

export interface PipelineDependencies {
  readonly stash: Stash;
  readonly tokens?: TokenCounter;
  readonly memo?: MessageMemo;
  readonly state?: SessionStateStore;
  readonly logger?: Logger;
  /** The clock deadlines are measured on, in ms (`performance.now` unless a test passes its own). */
  readonly clock?: () => number;
}

export interface RunOptions {
  /** The target's usable input budget in tokens. */
  readonly windowTokens?: number;
  readonly model?: ModelPort;
  /** Groups turns of one conversation for pins; derived from the first messages when absent. */
  readonly sessionId?: string;
  /**
   * Where Herald's flow forwards the request; set it only when that flow answers Herald's own
   * tools inside the turn (tool_catalog offers its loader then). Undefined when none does.
   */
  readonly targetKind?: TargetKind;
  /**
   * The chance that a session's first marker brings a retrieve round, as the host measured its
   * client's model (`flow/firstMarkerRate.ts`); with `firstMarkerRound`, default 1 (every one).
   */
  readonly firstMarkerRisk?: number;
  readonly signal?: AbortSignal;
  /**
   * Given, the run returns before the memo and pins it changed are written to a shared store
   * and hands over `write`, which writes them (the stash's originals are always written
   * first): a worker answers with the request, then writes. The caller calls `write` once,
   * before anything else uses this pipeline, keeps the session's next run waiting until it
   * settles, and hears of a failed write from it.
   */
  readonly deferWrites?: (write: () => Promise<void>) => void;
}

export interface PipelineResult {
  readonly request: ChatRequest;
  readonly decisions: readonly Decision[];
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  readonly durationMs: number;
  /** Leading messages replayed from earlier turns' decisions. */
  readonly replayedMessages: number;
  readonly sessionId: string;
  /** Set when a strategy answered the request itself (semantic cache hit). */
  readonly response?: unknown;
  /** True when this request is a control sample that skipped every mutating strategy. */
  readonly holdout: boolean;
  /**
   * Tokens each strategy saved on this request: what it did this turn plus what it decided on
   * earlier turns for the messages replayed from the memo (a history decision keeps saving).
   */
  readonly savedByStrategy: Readonly<Record<string, number>>;
  /**
   * Where every real elision of the optimized request stands (replayed history messages
   * included), so expansion can replace those and nothing else: a verbatim copy of a real
   * replacement elsewhere (the model quoting a marker) is text, not an elision. Empty when
   * nothing was elided or the request went out as it arrived.
   */
  readonly elisions: readonly RequestElisionSite[];
  /**
   * Set when the optimized request was abandoned and the request goes out as it arrived
   * (an elided original could not be saved, or the pipeline ran past its deadline): what
   * happened, as `code: explanation`.
   */
  readonly restored?: string;
}

const DEFAULT_TIME_LIMIT_MS = 5000;

export class Pipeline {
  readonly tokens: TokenCounter;
  readonly memo: MessageMemo;
  readonly state: SessionStateStore;
  private readonly logger: Logger;
  private readonly configHash: string;
  /** The least share a rewrite of a cached history output must remove (the config's, or the default). */
  private readonly cachedRewriteMinSavedShare: number;
  /** Each strategy's options once checked against its schema. */
  private readonly checkedOptions = new Map<Strategy, Readonly<Record<string, unknown>>>();
  /** Each session's latest messages, whose digests its next request's history takes. */
  private readonly digestCarry = new DigestCarry();

  constructor(
    readonly strategies: readonly Strategy[],
    private readonly config: PipelineConfig,
    private readonly dependencies: PipelineDependencies,
  ) {
    this.tokens = dependencies.tokens ?? new TokenCounter();
    this.memo = dependencies.memo ?? new MessageMemo();
    this.state = dependencies.state ?? new SessionStateStore();
    this.logger = dependencies.logger ?? silentLogger;
    validateConfig(strategies, config);
    this.cachedRewriteMinSavedShare = config.cachedRewriteMinSavedShare ?? CACHED_REWRITE_MIN_SAVED_SHARE;
    this.configHash = sha256(canonicalJson({
      order: strategies.map((strategy) => strategy.id),
      enabled: this.enabledIds(),
      options: config.options ?? {},
      cachedRewriteMinSavedShare: this.cachedRewriteMinSavedShare,
      ...(config.firstMarkerRound === true ? { firstMarkerRound: true } : {}),
      ...(config.scope !== undefined ? { scope: config.scope } : {}),
    }));
  }

  /** Ids of the strategies that will run, in order. */
  enabledIds(): string[] {
    return this.strategies.filter((strategy) => this.config.enabled?.[strategy.id] ?? strategy.defaultEnabled).map((strategy) => strategy.id);
  }

  async run(input: ChatRequest, options: RunOptions = {}): Promise<PipelineResult> {
    const started = performance.now();
    const deadline = new Deadline(this.config.deadlineMs ?? Math.max(DEFAULT_PIPELINE_DEADLINE_MS, this.config.timeLimitMs ?? 0), 'pipeline', this.dependencies.clock);
    try {
      return await this.runWithin(input, options, started, deadline);
    } catch (error) {
      // The deadline passed before any strategy ran (hashing or counting a huge request).
      if (!isDeadlineExceeded(error) || error.scope !== 'pipeline') throw error;
      this.logger.warn('pipeline-deadline-exceeded', `Herald: the pipeline ran past its ${deadline.limitMs} ms deadline before any strategy ran; the request was sent as it arrived`);
      return requestAsItCame(input, this.enabledIds(), deadline.limitMs, started, options.sessionId ?? sessionIdOf(input));
    }
  }

  private async runWithin(input: ChatRequest, options: RunOptions, started: number, deadline: Deadline): Promise<PipelineResult> {
    const sessionId = options.sessionId ?? sessionIdOf(input);
    const freshStart = freshStartOf(input.messages);
    // Cache hints are not content: decisions are keyed and replayed without them (see messageMemo.ts).
    const stripped = input.messages.map(stripCacheHints);
    const bare = stripped.map((entry) => entry.bare);
    // History re-sent as it was last turn keeps last turn's digests (digestCarry.ts).
    this.digestCarry.carry(sessionId, bare);
    const chain = withDeadline(deadline, () => chainHashes(this.configHash, bare));
    this.digestCarry.remember(sessionId, bare);
    const ownKeys = new Map<number, string>();
    const ownKey = (index: number): string => {
      let key = ownKeys.get(index);
      if (key === undefined) ownKeys.set(index, (key = ownKeyOf(this.configHash, stripped[index]!.bare)));
      return key;
    };
    // A memo and pins shared with other processes are read before the synchronous run (runState.ts).
    await loadRunState({ memo: this.memo, state: this.state, stash: this.dependencies.stash }, chain, freshStart, sessionId, ownKey);

    // Replay what earlier turns decided; stop at the first history message not seen before.
    let frozenCount = 0;
    const replayed: ChatMessage[] = [];
    const savedBefore: Record<string, number> = {};
    /** The elision sites of history as earlier turns left them, message by message. */
    const seeds: [number, readonly MessageElisionSite[]][] = [];
    while (frozenCount < freshStart) {
      const memoized = this.memo.replay(chain[frozenCount]!, stripped[frozenCount]!.hints);
      if (!memoized) break;
      replayed.push(memoized.message);
      seeds.push([frozenCount, memoized.sites]);
      for (const [id, tokens] of Object.entries(memoized.savings ?? {})) savedBefore[id] = (savedBefore[id] ?? 0) + tokens;
      frozenCount++;
    }
    const savingsBefore = new Map<number, Record<string, number>>();
    // Last turn's fresh input, now history: it starts from the form it arrived in, which is what
    // the provider cached (decided once, on arrival); a later rewrite pays its cache write.
    // A message an earlier turn decided under another chain (the client rebuilt an earlier message,
    // as on a resume) starts from that decision, found by its own bytes: decided stays decided.
    const undecided = input.messages.slice(frozenCount);
    for (let index = frozenCount; index < freshStart; index++) {
      const arrived = this.memo.decidedOwn(ownKey(index), stripped[index]!.hints) ?? this.memo.arrival(chain[index]!, stripped[index]!.hints, ownKey(index));
      if (!arrived) continue;
      undecided[index - frozenCount] = arrived.message;
      seeds.push([index, arrived.sites]);
      if (arrived.savings) {
        savingsBefore.set(index, { ...arrived.savings });
        for (const [id, tokens] of Object.entries(arrived.savings)) savedBefore[id] = (savedBefore[id] ?? 0) + tokens;
      }
    }
    const start: ChatRequest = frozenCount === 0 && undecided.every((message, index) => message === input.messages[index]) ? input : { ...input, messages: [...replayed, ...undecided] };

    const tokensBefore = withDeadline(deadline, () => this.tokens.countRequest(input));
    const stash = this.dependencies.stash;
    const pass = (refuse: boolean, rewrittenFrom?: number): Promise<Pass> => {
      const sites = new ElisionTracker((handle) => stash.issuedEntry(handle), (location) => {
        this.logger.warn('elision-sites-guessed', `Herald: the rewrite of message ${location.messageIndex} part ${location.partIndex} could not be aligned with its text before; its elisions are located by text alone`);
      });
      for (const [index, messageSites] of seeds) sites.seed(index, messageSites);
      // What rewriting cached history costs this run, priced for the target's provider (cacheEconomics.ts).
      const rewrites = new RewriteEconomics(start, freshStart, this.tokens, this.config.cachedRewriteMinSavedShare, refuse, rewrittenFrom);
      return this.runPass({ start, input, frozenCount, freshStart, sessionId, options, deadline, tokensBefore, sites, rewrites, savedByStrategy: { ...savedBefore }, messageSavings: new Map([...savingsBefore].map(([index, saved]) => [index, { ...saved }])) });
    };
    // A session that shows no marker yet pays for its first one with a retrieve round (cacheEconomics.ts, firstMarkerGain).
    // A model known to rarely ask (a risk no higher than any marker's) is priced by the usual rule.
    const firstMarkerRisk = Math.min(1, Math.max(0, options.firstMarkerRisk ?? 1));
    const firstMarkers = this.config.firstMarkerRound === true && options.targetKind !== undefined && this.config.cachedRewriteMinSavedShare === undefined && firstMarkerRisk > RETRIEVAL_RISK && seeds.every(([, messageSites]) => messageSites.length === 0);
    // A second pass must start from the pins the first one started from (cache_lint records each request's prefix).
    const pinsBefore = this.state.snapshot(sessionId);
    const again = (refuse: boolean, rewrittenFrom?: number): Promise<Pass> => {
      this.state.restore(sessionId, pinsBefore);
      return pass(refuse, rewrittenFrom);
    };
    let run = await pass(false);
    // Past the deferral window the session is long enough to repay a round: its markers go out as they pay.
    const deferring = firstMarkers && run.rewrites.requestsSoFar < FIRST_MARKER_DEFERRAL_REQUESTS;
    // Rewrites of cached history priced one by one charge each the history after it; some were
    // refused only for that. Decided as one batch from the earliest of them, they may pay together.
    const batchFrom = run.rewrites.refusedForSuffix;
    if (batchFrom !== undefined && run.response === undefined && !run.holdout && !run.overran && !deadline.expired) {
      const pinsAfter = this.state.snapshot(sessionId);
      const batch = await again(false, batchFrom);
      if (!batch.overran && batch.response === undefined && this.batchGain(start, batch) > this.batchGain(start, run)) run = batch;
      else this.state.restore(sessionId, pinsAfter);
    }
    if (deferring && run.response === undefined && !run.holdout && !run.overran && run.sites.all().length > 0) {
      const gain = this.firstMarkerGain(start, run, firstMarkerRisk);
      if (gain <= 0) run = deferred(await again(true), run, gain);
    }
    const { decisions, sites, savedByStrategy, messageSavings, arrival, response, holdout, overran } = run;
    let request = run.request;
    // A session still without a marker leaves the history it kept whole undecided, for a later run to elide when that pays.
    const undecidedKept = deferring && sites.all().length === 0;

    await this.dependencies.stash.flush();
    // Never lose data: a marker whose original could not be saved would point at nothing, so
    // the request goes out as it arrived (fail-open) and nothing of this run is memoized.
    const lost = overran ? [] : this.lostHandles(request);
    if (lost.length > 0) this.logger.error('stash-write-failed-request-restored', `Herald: ${lost.length} elided original(s) could not be saved (${lost.slice(0, 3).join(', ')}); the request was sent as it arrived`);
    // Past the pipeline's deadline the request goes out as it came: half a run is no decision to keep.
    if (overran) this.logger.warn('pipeline-deadline-exceeded', `Herald: the pipeline ran past its ${deadline.limitMs} ms deadline; the request was sent as it arrived`);
    const restoredBecause = overran
      ? `${PIPELINE_DEADLINE_ACTION}: the pipeline ran past its ${deadline.limitMs} ms deadline`
      : lost.length > 0 ? `stash-write-failed: ${lost.length} elided original(s) could not be saved` : undefined;
    if (restoredBecause !== undefined) {
      request = input;
      sites.clear();
    }
    // A cancelled run skipped strategies; memoizing its history would freeze that half-done state.
    if (!holdout && response === undefined && restoredBecause === undefined && !options.signal?.aborted) {
      // One group a run, by scope: a store may keep the run's entries together, never another tenant's with them.
      this.memo.decidingFor(this.config.scope ?? '', () => {
        for (let index = frozenCount; index < freshStart; index++) {
          if (undecidedKept && request.messages[index] === start.messages[index]) continue;
          this.memo.decide(chain[index]!, request.messages[index]!, stripped[index]!.hints, messageSavings.get(index), sites.messageSites(index), ownKey(index));
        }
        for (let index = freshStart; index < arrival.request.messages.length; index++) {
          const message = arrival.request.messages[index]!;
          if (message !== input.messages[index]) this.memo.setArrival(chain[index]!, message, stripped[index]!.hints, arrival.savings.get(index), arrival.sites.get(index), ownKey(index));
        }
      });
    }
    const write = (): Promise<void> => saveRunState({ memo: this.memo, state: this.state }, sessionId);
    if (options.deferWrites) options.deferWrites(write);
    else await write();
    return {
      request,
      decisions,
      tokensBefore,
      tokensAfter: this.tokens.countRequest(request),
      durationMs: performance.now() - started,
      replayedMessages: frozenCount,
      sessionId,
      response,
      holdout,
      elisions: sites.all(),
      savedByStrategy: restoredBecause !== undefined ? {} : savedByStrategy,
      ...(restoredBecause !== undefined ? { restored: restoredBecause } : {}),
    };
  }

  /** One pass of the enabled strategies over the request as the memo left it. */
  private async runPass(given: PassInput): Promise<Pass> {
    const { start, input, frozenCount, freshStart, sessionId, options, deadline, tokensBefore, sites, rewrites, savedByStrategy, messageSavings } = given;
    let request = start;
    let overran = false;
    // The fresh input's arrival form: the request as it stood before any tail annotation.
    let arrival = { request, savings: new Map<number, Record<string, number>>(), sites: new Map<number, MessageElisionSite[]>() };
    let annotated = false;
    const decisions: Decision[] = [];
    let response: unknown;
    let holdout = false;

    for (const strategy of this.strategies) {
      const enabled = this.config.enabled?.[strategy.id] ?? strategy.defaultEnabled;
      if (!enabled) continue;
      if (holdout && strategy.kind !== 'signal') {
        decisions.push(skipped(strategy.id, 'holdout-skipped', 'this request is a control sample (audited_holdout)', this.tokens.countRequest(request)));
        continue;
      }
      if (options.signal?.aborted) {
        decisions.push(skipped(strategy.id, 'request-cancelled', 'the caller cancelled the request', this.tokens.countRequest(request)));
        continue;
      }
      if (overran || deadline.expired) {
        overran = true;
        decisions.push(skipped(strategy.id, PIPELINE_DEADLINE_ACTION, `the pipeline ran past its ${deadline.limitMs} ms deadline; the request goes out as it came`, tokensBefore));
        continue;
      }
      const outcome = await this.runOne(strategy, request, input, frozenCount, freshStart, sessionId, options, rewrites, deadline);
      decisions.push(outcome.decision);
      if (outcome.decision.action === PIPELINE_DEADLINE_ACTION) overran = true;
      const saved = outcome.decision.tokensBefore - outcome.decision.tokensAfter;
      if (saved !== 0) savedByStrategy[strategy.id] = (savedByStrategy[strategy.id] ?? 0) + saved;
      if (outcome.result) {
        this.attribute(strategy.id, request, outcome.result.request, frozenCount, messageSavings);
        sites.update(request, outcome.result.request);
        if (strategy.annotatesTail && outcome.result.request !== request) annotated = true;
        request = outcome.result.request;
        if (!annotated) arrival = this.arrivalOf(request, freshStart, messageSavings, sites);
        if (outcome.result.holdout) holdout = true;
        if (outcome.result.response !== undefined) {
          response = outcome.result.response;
          break;
        }
      }
    }
    return { request, decisions, sites, rewrites, savedByStrategy, messageSavings, arrival, response, holdout, overran };
  }

  /** What a pass's elisions gain together, each one's retrieve risk priced in (cacheEconomics.ts, batchGain). */
  private batchGain(start: ChatRequest, run: Pass): number {
    const prices = run.rewrites.prices;
    const requestTokens = this.tokens.countRequest(run.request);
    let risk = 0;
    for (const site of run.sites.all()) {
      const original = this.dependencies.stash.issuedEntry(site.handle)?.original;
      risk += RETRIEVAL_RISK * (prices.read * requestTokens + prices.write * (original === undefined ? 0 : this.tokens.count(original)));
    }
    return batchGain({
      before: start.messages.map((message) => this.tokens.countMessage(message)),
      after: run.request.messages.map((message) => this.tokens.countMessage(message)),
      cachedEnd: run.rewrites.cachedEnd,
      remainingRequests: run.rewrites.remainingRequests,
    }, prices) - risk;
  }

  /** What a pass's elisions gain together as their session's first markers, one retrieve round priced in (cacheEconomics.ts). */
  private firstMarkerGain(start: ChatRequest, run: Pass, risk: number): number {
    let originalTokens = 0;
    for (const site of run.sites.all()) {
      const original = this.dependencies.stash.issuedEntry(site.handle)?.original;
      if (original !== undefined) originalTokens = Math.max(originalTokens, this.tokens.count(original));
    }
    return firstMarkerGain({
      before: start.messages.map((message) => this.tokens.countMessage(message)),
      after: run.request.messages.map((message) => this.tokens.countMessage(message)),
      cachedEnd: run.rewrites.cachedEnd,
      requestTokens: this.tokens.countRequest(run.request),
      originalTokens,
      remainingRequests: run.rewrites.remainingRequests,
    }, run.rewrites.prices, risk);
  }

  /** The fresh input as it stands now, with what each strategy saved on it and where its elisions are. */
  private arrivalOf(request: ChatRequest, freshStart: number, savings: ReadonlyMap<number, Record<string, number>>, sites: ElisionTracker): { request: ChatRequest; savings: Map<number, Record<string, number>>; sites: Map<number, MessageElisionSite[]> } {
    const fresh = { request, savings: new Map<number, Record<string, number>>(), sites: new Map<number, MessageElisionSite[]>() };
    for (let index = freshStart; index < request.messages.length; index++) {
      const saved = savings.get(index);
      if (saved) fresh.savings.set(index, { ...saved });
      fresh.sites.set(index, sites.messageSites(index));
    }
    return fresh;
  }

  /**
   * A strategy's options, defaults applied; with an option schema, checked against it first
   * (throws inside the strategy's fail-open run when a value is wrong).
   */
  private strategyOptions(strategy: Strategy): Readonly<Record<string, unknown>> {
    // The configuration never changes, so options that passed their check once are kept (a
    // wrong value is checked, and fails the strategy open, on every run as before).
    const known = this.checkedOptions.get(strategy);
    if (known) return known;
    const set = this.config.options?.[strategy.id] ?? {};
    if (strategy.optionSchema !== undefined) checkOptions(strategy.id, strategy.optionSchema, set);
    const options = { ...(strategy.defaults ?? {}), ...set };
    this.checkedOptions.set(strategy, options);
    return options;
  }

  /** Handles in `request` whose stash entries could not be written. */
  private lostHandles(request: ChatRequest): string[] {
    const unwritten = this.dependencies.stash.unwrittenHandles();
    if (unwritten.size === 0) return [];
    const text = JSON.stringify(request.messages);
    return [...unwritten].filter((handle) => text.includes(handle));
  }

  /** Records, per undecided message (history and fresh input), the tokens a strategy removed from it (for replayed turns). */
  private attribute(id: string, before: ChatRequest, after: ChatRequest, frozenCount: number, savings: Map<number, Record<string, number>>): void {
    if (before === after) return;
    for (let index = frozenCount; index < after.messages.length; index++) {
      const previous = before.messages[index]!;
      const next = after.messages[index]!;
      if (previous === next) continue;
      const saved = this.tokens.countMessage(previous) - this.tokens.countMessage(next);
      if (saved === 0) continue;
      const entry = savings.get(index) ?? {};
      entry[id] = (entry[id] ?? 0) + saved;
      savings.set(index, entry);
    }
  }

  /** The decision of a strategy stopped at its time limit, or at the pipeline's deadline. */
  private timedOut(id: string, deadline: Deadline, base: { strategy: string; tokensBefore: number; handles: string[] }, durationMs: number): { decision: Decision } {
    if (deadline.scope === 'pipeline') {
      return { decision: { ...base, status: 'timeout', action: PIPELINE_DEADLINE_ACTION, reason: `the pipeline ran past its ${deadline.budgetMs} ms deadline while this strategy ran; the request goes out as it came`, tokensAfter: base.tokensBefore, durationMs } };
    }
    this.logger.warn('strategy-timed-out', `Herald: ${id} took longer than ${deadline.limitMs} ms and was skipped`);
    return { decision: { ...base, status: 'timeout', action: 'strategy-timed-out', reason: `took longer than ${deadline.limitMs} ms; request left as it was`, tokensAfter: base.tokensBefore, durationMs } };
  }

  /** Hands the model's answer to the strategies that learn from it (semantic_cache). */
  async afterResponse(request: ChatRequest, response: unknown, sessionId = sessionIdOf(request)): Promise<void> {
    for (const strategy of this.strategies) {
      if (!strategy.afterResponse || !(this.config.enabled?.[strategy.id] ?? strategy.defaultEnabled)) continue;
      try {
        await strategy.afterResponse(request, response, { state: this.state.scope(sessionId, strategy.id), logger: this.logger });
      } catch (error) {
        this.logger.warn('strategy-after-response-failed', `Herald: ${strategy.id} failed after the response: ${describeError(error)}`);
      }
    }
  }

  private async runOne(
    strategy: Strategy,
    request: ChatRequest,
    original: ChatRequest,
    frozenCount: number,
    freshStart: number,
    sessionId: string,
    options: RunOptions,
    rewrites: RewriteEconomics,
    pipelineDeadline: Deadline,
  ): Promise<{ decision: Decision; result?: StrategyResult }> {
    const before = this.tokens.countRequest(request);
    const strategyLimit = this.config.timeLimitMs ?? DEFAULT_TIME_LIMIT_MS;
    // The strategy stops at its own limit or at the pipeline's deadline, whichever comes first.
    const left = pipelineDeadline.remainingMs;
    const bindsPipeline = left < strategyLimit;
    const limit = bindsPipeline ? left : strategyLimit;
    const clock = this.dependencies.clock;
    const deadline = bindsPipeline ? new Deadline(left, 'pipeline', clock, pipelineDeadline.limitMs) : new Deadline(strategyLimit, 'strategy', clock);
    // The strategy's signal is made when it reads it (most never do; making one for each
    // strategy was a twentieth of a warm turn), aborted then if the caller or the time limit
    // already did.
    let controller: AbortController | undefined;
    let aborted = false;
    const abort = (): void => {
      aborted = true;
      controller?.abort();
    };
    const signalOf = (): AbortSignal => {
      if (!controller) {
        controller = new AbortController();
        if (aborted) controller.abort();
      }
      return controller.signal;
    };
    options.signal?.addEventListener('abort', abort);
    const started = performance.now();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const base = { strategy: strategy.id, tokensBefore: before, handles: [] as string[] };
    try {
      const context = {
        stash: this.dependencies.stash,
        tokens: this.tokens,
        frozenCount,
        freshStart,
        original,
        options: this.strategyOptions(strategy),
        cachedRewriteMinSavedShare: this.cachedRewriteMinSavedShare,
        rewrites,
        state: this.state.scope(sessionId, strategy.id),
        windowTokens: options.windowTokens,
        targetKind: options.targetKind,
        logger: this.logger,
        model: options.model,
        get signal(): AbortSignal {
          return signalOf();
        },
        deadline,
      };
      // Only a strategy that answers with a promise is raced against the time limit and the
      // caller's cancel: one that answers at once could not be interrupted anyway (its time is
      // checked below), and a timer and two promises per strategy were a tenth of a warm turn.
      let applied: Promise<StrategyResult> | StrategyResult | undefined;
      try {
        applied = withDeadline(deadline, () => strategy.apply(request, context));
      } catch (error) {
        // A strategy that failed after the caller cancelled is reported cancelled, as before.
        if (!aborted) throw error;
      }
      let outcome: StrategyResult | 'timeout' | 'cancelled';
      // The caller cancelled while the strategy ran: it lost the race, as it did when every
      // strategy was raced.
      if (aborted) {
        outcome = 'cancelled';
      } else if (isPromiseLike(applied)) {
        const timeout = new Promise<'timeout'>((resolve) => {
          timer = setTimeout(() => resolve('timeout'), limit);
        });
        // A cancelled request stops waiting at once, even for a strategy that never settles.
        const cancelled = new Promise<'cancelled'>((resolve) => {
          const signal = signalOf();
          if (signal.aborted) resolve('cancelled');
          signal.addEventListener('abort', () => resolve('cancelled'), { once: true });
        });
        outcome = await Promise.race([applied, timeout, cancelled]);
      } else {
        outcome = applied!;
      }
      const durationMs = performance.now() - started;
      if (outcome === 'cancelled') {
        return { decision: { ...base, status: 'skipped', action: 'request-cancelled', reason: 'the caller cancelled the request while this strategy ran; request left as it was', tokensAfter: before, durationMs } };
      }
      // A strategy that overran without checking its deadline is discarded all the same.
      if (outcome === 'timeout' || durationMs > limit) {
        abort();
        return this.timedOut(strategy.id, deadline, base, durationMs);
      }
      const protectedIndex = (index: number): boolean =>
        (index < frozenCount && !strategy.rewritesFrozen) || (index >= freshStart && !strategy.touchesFresh) || strategy.kind === 'signal';
      const problem = invalidResult(request, outcome.request, protectedIndex);
      if (problem) {
        this.logger.warn('strategy-result-rejected', `Herald: ${strategy.id} ${problem}; its result was discarded`);
        return { decision: { ...base, status: 'rejected', action: 'strategy-result-rejected', reason: `${problem}; request left as it was`, tokensAfter: before, durationMs } };
      }
      const changed = outcome.request !== request;
      const after = changed ? this.tokens.countRequest(outcome.request) : before;
      const status = strategy.kind === 'signal' ? 'signal' : changed ? 'applied' : 'unchanged';
      return {
        decision: {
          strategy: strategy.id,
          status,
          action: outcome.action,
          reason: outcome.reason,
          tokensBefore: before,
          tokensAfter: after,
          durationMs,
          handles: [...(outcome.handles ?? [])],
          details: outcome.details,
        },
        result: strategy.kind === 'signal' ? { ...outcome, request } : outcome,
      };
    } catch (error) {
      const durationMs = performance.now() - started;
      if (isDeadlineExceeded(error)) {
        abort();
        return this.timedOut(strategy.id, deadline, base, durationMs);
      }
      this.logger.warn('strategy-failed', `Herald: ${strategy.id} failed and was skipped: ${describeError(error)}`);
      return { decision: { ...base, status: 'failed', action: 'strategy-failed', reason: `${describeError(error)}; request left as it was`, tokensAfter: before, durationMs } };
    } finally {
      if (timer) clearTimeout(timer);
      options.signal?.removeEventListener('abort', abort);
    }
  }
}

/** What one pass of the strategies starts from. */
interface PassInput {
  readonly start: ChatRequest;
  readonly input: ChatRequest;
  readonly frozenCount: number;
  readonly freshStart: number;
  readonly sessionId: string;
  readonly options: RunOptions;
  readonly deadline: Deadline;
  readonly tokensBefore: number;
  readonly sites: ElisionTracker;
  readonly rewrites: RewriteEconomics;
  readonly savedByStrategy: Record<string, number>;
  readonly messageSavings: Map<number, Record<string, number>>;
}

/** What one pass of the strategies did. */
interface Pass {
  readonly request: ChatRequest;
  readonly decisions: Decision[];
  readonly sites: ElisionTracker;
  readonly rewrites: RewriteEconomics;
  readonly savedByStrategy: Record<string, number>;
  readonly messageSavings: Map<number, Record<string, number>>;
  readonly arrival: { request: ChatRequest; savings: Map<number, Record<string, number>>; sites: Map<number, MessageElisionSite[]> };
  readonly response: unknown;
  readonly holdout: boolean;
  readonly overran: boolean;
}

/**
 * The pass run with the session's first markers refused, its decisions saying so: each strategy
 * whose elisions the first pass made and this one did not reports them deferred.
 */
function deferred(run: Pass, first: Pass, gain: number): Pass {
  const offered = new Map(first.decisions.map((decision) => [decision.strategy, decision]));
  const decisions = run.decisions.map((decision) => {
    const made = offered.get(decision.strategy);
    const lost = (made?.handles.length ?? 0) - decision.handles.length;
    if (!made || lost <= 0) return decision;
    return {
      ...decision,
      action: 'first-markers-deferred',
      reason: `its ${lost} elision(s) would be the session's first markers and would not repay the retrieve round they may cause (${Math.round(gain)} token-equivalents); the outputs stay whole and are decided again on a later request`,
      details: { ...(decision.details ?? {}), deferredElisions: lost, deferredTokens: made.tokensBefore - made.tokensAfter, firstMarkerGain: Math.round(gain) },
    };
  });
  return { ...run, decisions };
}

function isPromiseLike<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

/**
 * A session is named by its opening: the messages before the first reply, the system prompt
 * left out (Copilot changes its system prompt between prompts of one conversation; pins that
 * depend on more, such as tool_pruning's tool list, check it themselves), and the cache hints
 * a client moves left out too. A request with nothing but system messages is named by those.
 */
export function sessionIdOf(request: ChatRequest): string {
  const firstReply = request.messages.findIndex((message) => message.role === 'assistant');
  const before = request.messages.slice(0, firstReply < 0 ? request.messages.length : firstReply);
  const opening = before.some((message) => message.role !== 'system') ? before.filter((message) => message.role !== 'system') : before;
  return sha256(opening.map((message) => JSON.stringify(stripCacheHints(message).bare.parts)).join('\u0000')).slice(0, 16);
}

function skipped(strategy: string, action: string, reason: string, tokens: number): Decision {
  return { strategy, status: 'skipped', action, reason, tokensBefore: tokens, tokensAfter: tokens, durationMs: 0, handles: [] };
}

function validateConfig(strategies: readonly Strategy[], config: PipelineConfig): void {
  if (config.deadlineMs !== undefined && !(typeof config.deadlineMs === 'number' && config.deadlineMs >= 0)) {
    throw new Error(`Herald: deadlineMs must be a number of milliseconds, 0 or more, got ${String(config.deadlineMs)}`);
  }
  if (config.firstMarkerRound !== undefined && typeof config.firstMarkerRound !== 'boolean') {
    throw new Error(`Herald: firstMarkerRound must be true or false, got ${String(config.firstMarkerRound)}`);
  }
  const share = config.cachedRewriteMinSavedShare;
  if (share !== undefined && !(typeof share === 'number' && share >= 0 && share <= 1)) {
    throw new Error(`Herald: cachedRewriteMinSavedShare must be a number from 0 to 1, got ${String(share)}`);
  }
  const known = new Map(strategies.map((strategy) => [strategy.id, strategy]));
  const seen = new Set<string>();
  for (const strategy of strategies) {
    if (seen.has(strategy.id)) throw new Error(`Herald: strategy "${strategy.id}" is registered twice`);
    seen.add(strategy.id);
  }
  for (const id of Object.keys(config.enabled ?? {})) {
    if (!known.has(id)) throw new Error(`Herald: unknown strategy id "${id}" (known: ${[...known.keys()].join(', ')})`);
  }
  for (const [id, parameters] of Object.entries(config.options ?? {})) {
    const strategy = known.get(id);
    if (!strategy) throw new Error(`Herald: options for unknown strategy id "${id}"`);
    // Names are checked here; values when the strategy runs, so a bad value fails that
    // strategy open (skipped, with the reason) instead of the whole configuration.
    if (strategy.optionSchema !== undefined) {
      checkOptionNames(id, strategy.optionSchema, parameters);
      continue;
    }
    for (const name of Object.keys(parameters)) {
      if (!(name in (strategy.defaults ?? {}))) {
        throw new Error(`Herald: unknown option "${name}" for strategy "${id}" (known: ${Object.keys(strategy.defaults ?? {}).join(', ') || 'none'})`);
      }
    }
  }
}


/**
 * The optimizer as the extension runs it: the registry's strategies, configured from the
 * settings, one stash and one memo for the whole session. Pure (no `vscode`): the extension
 * hands in settings and storage.
 */
import type { ChatRequest } from '../../core/chat/types';
import { MessageMemo } from '../../core/pipeline/messageMemo';
import { Pipeline, type PipelineConfig, type PipelineResult } from '../../core/pipeline/pipeline';
import { SessionStateStore } from '../../core/pipeline/sessionState';
import type { Strategy, TargetKind } from '../../core/pipeline/types';
import { warmUp, type WarmUpOutcome } from '../../core/pipeline/warmUp';
import { recordLoadedTools, TOOL_CATALOG_ID } from '../../core/strategies/toolCatalog';
import type { Logger, ModelPort } from '../../core/ports';
import type { Stash } from '../../core/stash/stash';
import { TokenCounter } from '../../core/tokens/tokenCounter';
import type { HeraldSettings } from '../settings/settingsSchema';
import { migrateRetiredStrategies } from '../settings/retiredStrategies';
import { EDITOR_STRATEGY_DEFAULTS } from '../settings/editorDefaults';
import { strategySettingKey, strategySettingName } from '../settings/strategySettingNames';

export interface PipelineConfigResult {
  readonly config: PipelineConfig;
  /** Settings that named unknown strategies or options; they were left out. */
  readonly problems: string[];
}

/** The pipeline configuration the settings describe, with anything the strategies do not know left out and reported. */
export function pipelineConfigOf(settings: HeraldSettings, strategies: readonly Strategy[]): PipelineConfigResult {
  const known = new Map(strategies.map((strategy) => [strategy.id, strategy]));
  const enabled: Record<string, boolean> = {};
  const options: Record<string, Record<string, unknown>> = {};
  // Settings of a retired strategy are read as its successor's (tool_pruning → tool_catalog).
  const migrated = migrateRetiredStrategies(settings.strategies);
  const problems: string[] = [...migrated.notes];
  for (const [id, value] of Object.entries(migrated.strategies)) {
    const strategy = known.get(id);
    if (!strategy) {
      // Settings for strategies not built yet are contributed for every id; only real overrides are worth a word.
      if (value.enabled === true || Object.keys(value.options).length > 0) problems.push(`herald.strategy.${strategySettingName(id)} (${id}): this strategy is not available in this build; the setting is ignored`);
      continue;
    }
    if (value.enabled !== undefined) enabled[id] = value.enabled;
    const defaults = strategy.defaults ?? {};
    const accepted: Record<string, unknown> = {};
    for (const [name, parameter] of Object.entries(value.options)) {
      if (name in defaults) accepted[name] = parameter;
      else problems.push(`herald.${strategySettingKey(id, 'options')}: unknown option "${name}" (known: ${Object.keys(defaults).join(', ') || 'none'}); it is ignored`);
    }
    if (Object.keys(accepted).length > 0) options[id] = accepted;
  }
  // The editor's own defaults (semantic_cache off: Retry must reach the model), where the user has not set the switch.
  for (const [id, editorDefault] of Object.entries(EDITOR_STRATEGY_DEFAULTS)) if (known.has(id) && enabled[id] === undefined) enabled[id] = editorDefault.enabled;
  return { config: { enabled, options, timeLimitMs: settings.strategyTimeLimitMs, deadlineMs: settings.pipelineDeadlineMs, ...(settings.cachedRewriteMinSavedShare !== undefined ? { cachedRewriteMinSavedShare: settings.cachedRewriteMinSavedShare } : {}), ...(settings.firstMarkerRound ? { firstMarkerRound: true } : {}) }, problems };
}

export class Optimizer {
  readonly tokens = new TokenCounter();
  private readonly memo = new MessageMemo();
  private readonly state = new SessionStateStore();
  private pipeline: Pipeline;
  private config: PipelineConfig = {};

  constructor(
    private strategies: readonly Strategy[],
    readonly stash: Stash,
    private readonly logger: Logger,
    settings: HeraldSettings,
  ) {
    this.pipeline = this.build(settings);
  }

  /** Applies new settings; the memo survives, and the configuration hash keeps old decisions apart. */
  configure(settings: HeraldSettings): void {
    this.pipeline = this.build(settings);
  }

  /** Swaps in strategies built for a new environment (another embedding model); stash, memo and session state carry over. */
  replaceStrategies(strategies: readonly Strategy[], settings: HeraldSettings): void {
    this.strategies = strategies;
    this.pipeline = this.build(settings);
  }

  /** Ids of the strategies that run, in order. */
  enabledIds(): string[] {
    return this.pipeline.enabledIds();
  }

  /**
   * Optimizes one request; `targetKind` only when Herald's flow forwards it and answers its own tools in the turn;
   * `firstMarkerRisk` as the flow measured it (`core/flow/firstMarkerRate.ts`).
   */
  run(request: ChatRequest, windowTokens: number, signal: AbortSignal, model?: ModelPort, targetKind?: TargetKind, firstMarkerRisk?: number): Promise<PipelineResult> {
    return this.pipeline.run(request, { windowTokens, signal, model, ...(targetKind ? { targetKind } : {}), ...(firstMarkerRisk !== undefined ? { firstMarkerRisk } : {}) });
  }

  /** Records tools the catalog loaded inside a turn of a session: they keep their full schema from now on. */
  loadTools(sessionId: string, names: readonly string[]): void {
    recordLoadedTools(this.state.scope(sessionId, TOOL_CATALOG_ID), names);
  }

  /**
   * One throwaway run over `body` with these strategies and settings (`core/pipeline/warmUp.ts`):
   * it loads the tables, grammars and model and compiles the hot paths, so the user's first
   * request does not pay for them, and writes nothing (its own stash, no memo, no session state).
   */
  warmUp(body: Record<string, unknown>): Promise<WarmUpOutcome> {
    return warmUp(this.strategies, this.config, this.tokens, body, 'endpoint');
  }

  /** Hands a live answer back to the strategies that learn from answers (semantic_cache stores it). */
  afterResponse(request: ChatRequest, response: unknown, sessionId: string): Promise<void> {
    return this.pipeline.afterResponse(request, response, sessionId);
  }

  private build(settings: HeraldSettings): Pipeline {
    const { config, problems } = pipelineConfigOf(settings, this.strategies);
    for (const problem of problems) this.logger.warn('setting-ignored', `Herald: ${problem}`);
    this.config = config;
    return new Pipeline(this.strategies, config, { stash: this.stash, tokens: this.tokens, memo: this.memo, state: this.state, logger: this.logger });
  }
}

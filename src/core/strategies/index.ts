/**
 * The strategy registry. `STRATEGY_ORDER` is the fixed order the pipeline runs them in:
 * signals that gate (holdout, cache) first; dedupe before the digesters so copies are
 * compared on their original bytes; the specialists (command_digest, relevance_filter) before
 * observation_mask; code_graph after it, so outputs the conversation moved past are masked
 * whole and only reads the agent built on are outlined (measured: +3 points of tokens saved
 * over code_graph first); the catch-all (context_compression) next; output_externalize after every
 * content-aware strategy, on what is still huge; edit_mask before history_trim (history_trim
 * keeps its markers verbatim, and their sites become nested sites of history_trim's own);
 * history_trim after the tool-output strategies; tool_catalog before window_budget (the budget
 * then counts the tools block the target gets); cache_optimizer last. Each factory lives in its
 * own file named after its id.
 */
import type { Strategy } from '../pipeline/types';
import type { StrategyEnvironment } from './environment';
import { createCodeGraph } from './codeGraph';
import { createCommandDigest } from './commandDigest';
import { createContextCompression } from './contextCompression';
import { createContextDedupe } from './contextDedupe';
import { createEditMask } from './editMask';
import { createHistoryTrim } from './historyTrim';
import { createObservationMask } from './observationMask';
import { createOutputExternalize } from './outputExternalize';
import { createPromptCompression } from './promptCompression';
import { createRelevanceFilter } from './relevanceFilter';
import { createWindowBudget } from './windowBudget';
import { createAuditedHoldout } from './auditedHoldout';
import { createCacheLint } from './cacheLint';
import { createCacheOptimizer } from './cacheOptimizer';
import { createContentCensus } from './contentCensus';
import { createContextQuality } from './contextQuality';
import { createOutputShaping } from './outputShaping';
import { createParamTuning } from './paramTuning';
import { createProviderContextTrim } from './providerContextTrim';
import { createReasoningBudget } from './reasoningBudget';
import { createSemanticCache } from './semanticCache';
import { createToolCatalog } from './toolCatalog';
import { createToolSchemaCompression } from './toolSchemaCompression';
import { createVisionOcr } from './visionOcr';

export type { StrategyEnvironment } from './environment';

export const STRATEGY_ORDER = [
  'audited_holdout',
  'semantic_cache',
  'content_census',
  'vision_ocr',
  'context_dedupe',
  'command_digest',
  'relevance_filter',
  'provider_context_trim',
  'observation_mask',
  'code_graph',
  'context_compression',
  'output_externalize',
  'edit_mask',
  'history_trim',
  'prompt_compression',
  'tool_catalog',
  'window_budget',
  'tool_schema_compression',
  'param_tuning',
  'reasoning_budget',
  'output_shaping',
  'context_quality',
  'cache_lint',
  'cache_optimizer',
] as const;

export type StrategyId = (typeof STRATEGY_ORDER)[number];

type StrategyFactory = (environment: StrategyEnvironment) => Strategy;

/**
 * Every implemented strategy's factory. Add one line per strategy, keyed by its id.
 */
const FACTORIES: Partial<Record<StrategyId, StrategyFactory>> = {
  code_graph: (environment) => createCodeGraph(environment),
  edit_mask: () => createEditMask(),
  history_trim: () => createHistoryTrim(),
  relevance_filter: (environment) => createRelevanceFilter(environment),
  window_budget: (environment) => createWindowBudget(environment),
  context_dedupe: (environment) => createContextDedupe(environment),
  observation_mask: (environment) => createObservationMask(environment),
  output_externalize: (environment) => createOutputExternalize(environment),
  prompt_compression: (environment) => createPromptCompression(environment),
  command_digest: (environment) => createCommandDigest(environment),
  context_compression: (environment) => createContextCompression(environment),
  audited_holdout: () => createAuditedHoldout(),
  cache_lint: () => createCacheLint(),
  cache_optimizer: () => createCacheOptimizer(),
  content_census: () => createContentCensus(),
  context_quality: () => createContextQuality(),
  output_shaping: () => createOutputShaping(),
  param_tuning: () => createParamTuning(),
  provider_context_trim: () => createProviderContextTrim(),
  reasoning_budget: () => createReasoningBudget(),
  semantic_cache: (environment) => createSemanticCache(environment.responseCache ? { store: environment.responseCache } : {}),
  tool_catalog: () => createToolCatalog(),
  tool_schema_compression: () => createToolSchemaCompression(),
  vision_ocr: (environment) => createVisionOcr(environment),
};

/** The implemented strategies, in pipeline order. */
export function createStrategies(environment: StrategyEnvironment = {}): Strategy[] {
  const strategies: Strategy[] = [];
  for (const id of STRATEGY_ORDER) {
    const factory = FACTORIES[id];
    if (!factory) continue;
    const strategy = factory(environment);
    if (strategy.id !== id) throw new Error(`Herald: factory for "${id}" built a strategy with id "${strategy.id}"`);
    strategies.push(strategy);
  }
  return strategies;
}

export function implementedStrategyIds(): StrategyId[] {
  return STRATEGY_ORDER.filter((id) => FACTORIES[id] !== undefined);
}

/**
 * Herald's settings, validated with zod. Pure: the extension reads values through
 * `vscode.workspace.getConfiguration('herald')` and hands them to {@link readSettings}.
 * A bad value never stops Herald: it falls back to the default and the problem is reported.
 */
import { z } from 'zod';
import { DEFAULT_PIPELINE_DEADLINE_MS } from '../../core/pipeline/deadline';
import { mergePriceTable, type PriceTable } from '../../core/costs/prices';

/** One endpoint the user added: a model behind an OpenAI-compatible or Anthropic API. */
export const endpointSchema = z.strictObject({
  /** Unique name; also the key under which its API key is kept in SecretStorage. */
  name: z.string().min(1).max(80),
  /** Which API the endpoint speaks. */
  kind: z.enum(['openai', 'anthropic']),
  /** Base URL, e.g. `https://api.openai.com/v1` or `https://api.anthropic.com/v1` (http or https). */
  url: z.url({ protocol: /^https?$/, error: 'an http:// or https:// base URL such as https://api.openai.com/v1' }),
  /** The model id sent to the endpoint. */
  model: z.string().min(1),
  /** The model's input window in tokens. */
  maxInputTokens: z.number().int().positive().default(128_000),
  /** The most tokens the model may answer with. */
  maxOutputTokens: z.number().int().positive().default(4096),
  /** Whether the model can call tools. */
  toolCalling: z.boolean().default(true),
  /** Whether the model accepts images. */
  imageInput: z.boolean().default(false),
});

/** An endpoint with its defaults applied. */
export type EndpointSettings = z.infer<typeof endpointSchema>;

export const AGGRESSIVENESS = ['conservative', 'balanced', 'aggressive'] as const;
export const JUDGE_MODES = ['off', 'shadow', 'gate'] as const;
/** Whether Herald lists "Herald · …" entries for Copilot-hosted models, which bill a premium request per request Herald sends. */
export const COPILOT_HOSTED_MODES = ['ask', 'show', 'hide'] as const;

/** Per-strategy settings: on/off and its parameters. */
export const strategySettingsSchema = z.strictObject({
  /** Overrides the strategy's own default when set. */
  enabled: z.boolean().optional(),
  /** Parameters by name; names the strategy does not know are rejected by the pipeline. */
  options: z.record(z.string(), z.unknown()).default({}),
});

export const settingsSchema = z.object({
  /** Master switch: when off, Herald models forward requests untouched. */
  enabled: z.boolean().default(true),
  /** How hard the filter and the strategies that read it cut. */
  aggressiveness: z.enum(AGGRESSIVENESS).default('balanced'),
  /** Per strategy id (`herald.strategy.<name>.enabled`, `herald.strategy.<name>.options`, the name being the id in camel case). */
  strategies: z.record(z.string(), strategySettingsSchema).default({}),
  /** The knowledge library's folder, relative to the first workspace folder. */
  libraryFolder: z.string().min(1).default('.herald'),
  /** Whether get_context asks the chat's model to judge sections: off, shadow (report only) or gate (drop what it rejects). */
  judgeMode: z.enum(JUDGE_MODES).default('off'),
  /** A local embedding model folder (ONNX); empty for lexical relevance only. */
  embeddingModelFolder: z.string().default(''),
  /** Record prompt text in decisions and logs (off: metadata only). */
  contentMode: z.boolean().default(false),
  /** Days an unused stashed original is kept. */
  stashTtlDays: z.number().positive().max(365).default(7),
  /** Megabytes the stash may use before the least recently used originals are evicted. */
  stashMaxMegabytes: z.number().positive().max(100_000).default(256),
  /** Longest a single strategy may run, in milliseconds. */
  strategyTimeLimitMs: z.number().int().positive().max(60_000).default(5000),
  /** Longest the whole optimizer may spend on one request, in milliseconds; past it the request goes out as it came. */
  pipelineDeadlineMs: z.number().int().positive().max(600_000).default(DEFAULT_PIPELINE_DEADLINE_MS),
  /**
   * Least share of a cached history output a rewrite must remove (the fixed rule). Unset, the
   * default: a rewrite is priced with the target provider's cache, as the CLI and the gateway do
   * (`core/pipeline/cacheEconomics.ts`).
   */
  cachedRewriteMinSavedShare: z.number().min(0).max(1).optional(),
  /** Price a session's first marker as the retrieve round it may bring, at the measured rate (`PipelineConfig.firstMarkerRound`). */
  firstMarkerRound: z.boolean().default(false),
  /** How many times in one turn Herald answers the model's `herald_retrieve` calls itself. */
  retrieveRounds: z.number().int().min(0).max(10).default(4),
  /** Endpoints the user added. */
  endpoints: z.array(z.unknown()).default([]),
  /** Copilot-hosted models: listed once the user has seen what they cost (ask), always (show), never (hide). */
  copilotHostedModels: z.enum(COPILOT_HOSTED_MODES).default('ask'),
  /** Prices per model id prefix, over the default table. */
  prices: z.unknown().optional(),
});

export type HeraldSettings = Omit<z.infer<typeof settingsSchema>, 'endpoints' | 'prices'> & { readonly endpoints: EndpointSettings[]; readonly prices: PriceTable };

/** The setting names under `herald.` as they appear in `package.json`. */
export const SETTING_KEYS = {
  enabled: 'enabled',
  aggressiveness: 'aggressiveness',
  strategies: 'strategy',
  libraryFolder: 'library.folder',
  judgeMode: 'judge.mode',
  embeddingModelFolder: 'embedding.modelFolder',
  contentMode: 'contentMode',
  stashTtlDays: 'stash.ttlDays',
  stashMaxMegabytes: 'stash.maxMegabytes',
  strategyTimeLimitMs: 'strategyTimeLimitMs',
  pipelineDeadlineMs: 'pipelineDeadlineMs',
  cachedRewriteMinSavedShare: 'cache.rewriteMinSavedShare',
  firstMarkerRound: 'cache.firstMarkerRound',
  retrieveRounds: 'retrieve.maxRounds',
  endpoints: 'endpoints',
  copilotHostedModels: 'copilotHostedModels',
  prices: 'prices',
} as const satisfies Record<keyof HeraldSettings, string>;

export interface SettingsReadResult {
  readonly settings: HeraldSettings;
  /** One line per value that was invalid and replaced by its default. */
  readonly problems: string[];
}

/**
 * Reads every setting through `get` (a `WorkspaceConfiguration.get`), validating each on its
 * own so one bad value costs only itself.
 */
export function readSettings(get: (key: string) => unknown): SettingsReadResult {
  const problems: string[] = [];
  const shape = settingsSchema.shape;
  const values: Record<string, unknown> = {};
  for (const [field, key] of Object.entries(SETTING_KEYS) as [keyof typeof shape, string][]) {
    const raw = get(key);
    const parsed = shape[field].safeParse(raw === null ? undefined : raw);
    if (parsed.success) {
      values[field] = parsed.data;
    } else {
      problems.push(`herald.${key}: ${z.prettifyError(parsed.error).replace(/\n/g, ' ')}; using the default`);
      values[field] = shape[field].parse(undefined);
    }
  }
  const endpoints: EndpointSettings[] = [];
  const names = new Set<string>();
  (values.endpoints as unknown[]).forEach((value, index) => {
    const parsed = endpointSchema.safeParse(value);
    if (!parsed.success) {
      problems.push(`herald.endpoints[${index}]: ${z.prettifyError(parsed.error).replace(/\n/g, ' ')}; this endpoint is ignored`);
    } else if (names.has(parsed.data.name)) {
      problems.push(`herald.endpoints[${index}]: the name "${parsed.data.name}" is used twice; this endpoint is ignored`);
    } else {
      names.add(parsed.data.name);
      endpoints.push(parsed.data);
    }
  });
  const prices = mergePriceTable(values.prices);
  problems.push(...prices.problems);
  return { settings: { ...(values as Omit<HeraldSettings, 'endpoints' | 'prices'>), endpoints, prices: prices.table }, problems };
}

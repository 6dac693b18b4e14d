/**
 * Herald's `package.json` contributions, written from code so the settings follow the strategy
 * registry (every implemented strategy gets an on/off setting and a parameters setting with its
 * real defaults). `writeManifest.ts` puts them into package.json; a unit test fails when the two
 * drift apart.
 */
import { GATEWAY_CONFIGURATION } from '../gateway/gatewaySettings';
import { CACHED_REWRITE_MIN_SAVED_SHARE } from '../../core/pipeline/cacheEconomics';
import { DEFAULT_PIPELINE_DEADLINE_MS } from '../../core/pipeline/deadline';
import { describeOptions, optionDefaults, strategySummary, type OptionDescription } from '../../core/pipeline/optionSchema';
import type { Strategy } from '../../core/pipeline/types';
import { STRATEGY_ORDER } from '../../core/strategies/index';
import { AGGRESSIVENESS, COPILOT_HOSTED_MODES, JUDGE_MODES } from '../settings/settingsSchema';
import { retiredSettingProperties } from '../settings/retiredStrategies';
import { EDITOR_STRATEGY_DEFAULTS, editorDefaultEnabled } from '../settings/editorDefaults';
import { legacyStrategySettingKey, strategySettingKey } from '../settings/strategySettingNames';
import { RETIRED_STRATEGIES } from '../settings/retiredStrategies';
import { DEFAULT_PRICES, PRICES_CHECKED } from '../../core/costs/prices';
import { PREMIUM_MULTIPLIER_URL } from '../../core/costs/billing';

type Json = Record<string, unknown>;

export const COMMANDS: readonly { command: string; title: string; icon?: string }[] = [
  { command: 'herald.retrieveElidedContent', title: 'Retrieve Elided Content', icon: '$(go-to-file)' },
  { command: 'herald.showDecisions', title: 'Show Decisions' },
  { command: 'herald.openLibrary', title: 'Open Library' },
  { command: 'herald.newLibraryPage', title: 'New Library Page', icon: '$(new-file)' },
  { command: 'herald.reindexLibrary', title: 'Reindex Library', icon: '$(refresh)' },
  { command: 'herald.exportSavingsReport', title: 'Export Savings Report', icon: '$(export)' },
  { command: 'herald.toggleOptimizer', title: 'Toggle Optimizer' },
  { command: 'herald.manageEndpoints', title: 'Manage Endpoints' },
  { command: 'herald.showLog', title: 'Show Log' },
  { command: 'herald.downloadEmbeddingModel', title: 'Download Embedding Model' },
  { command: 'herald.enableModels', title: 'Enable Herald Models', icon: '$(eye)' },
  { command: 'herald.openPriceTable', title: 'Edit Price Table' },
  { command: 'herald.connectAgents', title: 'Connect Agent Extensions' },
];

/**
 * Tools other agents may call. `herald_retrieve` is deliberately not among them: every Herald
 * model offers it inside the turn and answers it itself (core/flow/requestFlow.ts). A contributed
 * copy would sit in every agent request's tool list, switch the in-turn answer off (a caller's
 * tool of that name wins) and turn each retrieval into one more agent step, which on a
 * Copilot-hosted model is one more premium request.
 */
const TOOLS: readonly Json[] = [
  {
    name: 'herald_get_context',
    toolReferenceName: 'heraldContext',
    displayName: 'Herald: Get Context',
    userDescription: "The team's rules and reference for a task, from the Herald library",
    modelDescription:
      "Returns what the team's knowledge library says about a task: its rules in full and the relevant sections of its reference pages, as one Markdown bundle sized to a token budget. Call it before starting work on a task, describing the task in plain words.",
    canBeReferencedInPrompt: true,
    icon: '$(book)',
    inputSchema: {
      type: 'object',
      properties: {
        task: { type: 'string', description: 'What you are about to do, in plain words.' },
        max_tokens: { type: 'integer', minimum: 1000, maximum: 30000, description: 'Budget for the bundle in tokens (default 12000).' },
        pack: { type: 'string', description: 'Apply this pack instead of matching packs to the task.' },
        tags: { type: 'array', items: { type: 'string' }, description: 'Only sections of pages with these tags.' },
        folder: { type: 'string', description: 'Only material from this library folder and its subfolders.' },
      },
      required: ['task'],
    },
  },
  {
    name: 'herald_read_page',
    toolReferenceName: 'heraldPage',
    displayName: 'Herald: Read Page',
    userDescription: 'One page of the Herald library in full',
    modelDescription: 'Returns one page of the knowledge library in full, by the page id that herald_get_context shows.',
    canBeReferencedInPrompt: true,
    icon: '$(file)',
    inputSchema: { type: 'object', properties: { page_id: { type: 'string', description: 'The page id, e.g. billing/refunds.' } }, required: ['page_id'] },
  },
  {
    name: 'herald_filter_context',
    toolReferenceName: 'heraldFilter',
    displayName: 'Herald: Filter Context',
    userDescription: 'Keep only the candidate items that matter for a question',
    modelDescription:
      'Given a question and candidate context items (files, search hits, logs), cleans each, scores its relevance 0-3 and returns only the items worth reading, in their original order, with a report of every decision.',
    canBeReferencedInPrompt: true,
    icon: '$(filter)',
    inputSchema: {
      type: 'object',
      properties: {
        question: { type: 'string', description: 'The question the items should help answer.' },
        candidates: {
          type: 'array',
          items: { type: 'object', properties: { id: { type: 'string' }, content: { type: 'string' } }, required: ['id', 'content'] },
          description: 'The candidate items, each with your id and its text.',
        },
        aggressiveness: { type: 'string', enum: [...AGGRESSIVENESS], description: 'How hard to cut (default: the herald.aggressiveness setting).' },
        max_tokens: { type: 'integer', minimum: 1, description: 'Budget for the kept items in tokens.' },
        agent: { type: 'string', description: 'Names the caller; each agent learns its own threshold.' },
      },
      required: ['question', 'candidates'],
    },
  },
];

/** The `configuration.properties` of every setting, strategies included. */
export function configurationProperties(strategies: readonly Strategy[]): Json {
  const properties: Json = {
    'herald.enabled': { type: 'boolean', default: true, order: 0, markdownDescription: 'Optimize requests sent to **Herald · …** models. When off, they are forwarded untouched (the **Herald: Toggle Optimizer** command flips this).' },
    'herald.aggressiveness': {
      type: 'string',
      enum: [...AGGRESSIVENESS],
      default: 'balanced',
      order: 1,
      enumDescriptions: ['Keep any candidate that might matter.', 'The default trade-off.', 'Keep only clearly relevant candidates.'],
      markdownDescription: "How strictly Herald's **relevance filter** keeps candidates for a question: the `herald_filter_context` tool an agent calls, and the references **@herald** weighs. It does not change how the **Herald · …** models optimize requests: each strategy has its own settings (`herald.strategy.*`).",
    },
    'herald.endpoints': {
      type: 'array',
      default: [],
      order: 2,
      markdownDescription: 'Models Herald forwards to besides the ones VS Code already offers. Each becomes a **Herald · &lt;name&gt;** model. Add them with **Herald: Manage Endpoints**, which keeps the API key in secret storage (never here).',
      items: {
        type: 'object',
        required: ['name', 'kind', 'url', 'model'],
        additionalProperties: false,
        properties: {
          name: { type: 'string', description: 'Unique name, shown as "Herald · <name>".' },
          kind: { type: 'string', enum: ['openai', 'anthropic'], description: 'The API the endpoint speaks: OpenAI-compatible chat completions or Anthropic messages.' },
          url: { type: 'string', description: 'Base URL, e.g. https://api.openai.com/v1 or http://localhost:11434/v1.' },
          model: { type: 'string', description: 'The model id the endpoint expects.' },
          maxInputTokens: { type: 'integer', default: 128000, description: "The model's input window in tokens." },
          maxOutputTokens: { type: 'integer', default: 4096, description: 'The most tokens the model may answer with.' },
          toolCalling: { type: 'boolean', default: true, description: 'Whether the model can call tools (needed in agent mode).' },
          imageInput: { type: 'boolean', default: false, description: 'Whether the model accepts images.' },
        },
      },
    },
    'herald.library.folder': { type: 'string', default: '.herald', order: 3, markdownDescription: "The knowledge library's folder, relative to the workspace: Markdown pages with YAML front matter." },
    'herald.judge.mode': { type: 'string', enum: [...JUDGE_MODES], default: 'off', order: 4, enumDescriptions: ['Search only.', "Ask the chat's model to judge the sections, and only report what it would drop.", "Ask the chat's model and drop the sections it rejects."], markdownDescription: "Whether **@herald** makes model calls for the library: `off` plans the search by rules and asks no model; `shadow` and `gate` also ask the chat's model to plan the search and to judge which sections matter (extra requests per question; with a Copilot-hosted model each is a premium request, counted in the Decisions view)." },
    'herald.embedding.modelFolder': { type: 'string', default: '', order: 5, markdownDescription: 'A local ONNX embedding model folder (`model.onnx` and `tokenizer.json` or `vocab.txt`, optionally `herald-model.json` with checksums) for meaning-based relevance in the optimizer, the library and the filter, in place of the small retrieval model Herald ships. Empty: the shipped model. Herald downloads nothing by itself; run **Herald: Download Embedding Model** to fetch a pinned, checksum-verified all-MiniLM-L6-v2 and fill this in.' },
    'herald.contentMode': { type: 'boolean', default: false, order: 6, description: 'Record prompt text in decisions and logs. Off: decisions carry metadata only (sizes, actions, reasons).' },
    'herald.stash.ttlDays': { type: 'number', default: 7, minimum: 0.01, maximum: 365, order: 7, description: 'Days an unused elided original is kept for retrieval.' },
    'herald.stash.maxMegabytes': { type: 'number', default: 256, minimum: 1, order: 8, description: 'Megabytes of elided originals kept; the least recently used go first.' },
    'herald.strategyTimeLimitMs': { type: 'integer', default: 5000, minimum: 1, maximum: 60000, order: 9, description: 'Longest one strategy may run, in milliseconds; a slower one is skipped and the request goes on without it.' },
    'herald.pipelineDeadlineMs': { type: 'integer', default: DEFAULT_PIPELINE_DEADLINE_MS, minimum: 1, maximum: 600000, order: 9.2, markdownDescription: 'Longest Herald may spend optimizing one request, in milliseconds, all strategies together. Every strategy checks it as it works; past it the request is sent exactly as it came (nothing half-optimized goes out) and the decisions say so. The default keeps the time Herald adds far below what a model takes to answer; a request it cannot finish in time is one it should not hold back.' },
    'herald.cache.rewriteMinSavedShare': { type: ['number', 'null'], default: null, minimum: 0, maximum: 1, order: 9.5, markdownDescription: 'Least share (0–1) of an old tool output a history rewrite must remove. Unset (the default), a rewrite of history the provider has already cached is priced with that provider\'s cache, as `herald serve` and `herald optimize` do: it goes ahead only when what it saves over the rest of the session exceeds the cache it writes again and the retrieve round it may cause. A share set here replaces that with the fixed rule (`' + String(CACHED_REWRITE_MIN_SAVED_SHARE) + '` was the old default; 0 rewrites whatever saves a token).' },
    'herald.cache.firstMarkerRound': { type: 'boolean', default: false, order: 9.6, markdownDescription: 'Price a session\'s first marker as the retrieve round it may bring, at the rate the model has asked for first markers so far in this window (every one, until that is known). Until what one request elides pays for that round, nothing is elided and the history stays open to a later decision, so a short session never pays for a round (with a Copilot-hosted model, a premium request) it cannot earn back; a pasted log in a one-request chat then stays whole until the model has shown it rarely asks. Off (the default in the editor, where real models rarely ask): every marker is priced at the usual small chance of being retrieved. `herald serve` has it on (`--no-first-marker-round`).' },
    'herald.copilotHostedModels': {
      type: 'string',
      enum: [...COPILOT_HOSTED_MODES],
      default: 'ask',
      order: 2.5,
      enumDescriptions: ['Listed after you have read what they cost and chosen to list them (a one-time notice).', 'Always listed.', 'Never listed.'],
      markdownDescription: `Whether Herald offers **Herald · …** entries for GitHub Copilot's own models. Copilot counts every request Herald sends to one (each agent step, each Herald retrieve round, each library plan) as a premium request, times the model's [multiplier](${PREMIUM_MULTIPLIER_URL}). Endpoint models are listed first and billed by the token.`,
    },
    'herald.prices': {
      type: 'object',
      // Empty: the built-in table lives in code, so "Edit in settings.json" writes only what the user adds or changes.
      default: {},
      order: 2.6,
      additionalProperties: {
        type: 'object',
        required: ['input', 'cachedInput', 'output'],
        additionalProperties: false,
        properties: {
          input: { type: 'number', minimum: 0, description: 'USD per million fresh input tokens.' },
          cachedInput: { type: 'number', minimum: 0, description: 'USD per million input tokens read from the prompt cache.' },
          cacheWrite: { type: 'number', minimum: 0, description: 'USD per million input tokens written to the prompt cache (0 where the provider bills none).' },
          output: { type: 'number', minimum: 0, description: 'USD per million output tokens.' },
        },
      },
      markdownDescription: `Your prices, over Herald's built-in list prices, for turning a provider's own usage figures into money: model id prefix → USD per million tokens (the longest prefix of an endpoint's model id wins). Write only the models you pay differently for, or add one; every other model keeps its built-in price. Built in (OpenAI's and Anthropic's list prices as checked on ${PRICES_CHECKED}; input / cached input / cache write / output): ${builtInPricesText()}.`,
    },
    'herald.retrieve.maxRounds': { type: 'integer', default: 4, minimum: 0, maximum: 10, order: 10, markdownDescription: 'How many times in one turn Herald answers the model\'s `herald_retrieve` calls itself. 0 turns in-turn retrieval off.' },
    ...GATEWAY_CONFIGURATION,
  };
  for (const strategy of strategies) {
    // Ordered by the registry, so a strategy landing later does not renumber the others.
    const index = Math.max(0, (STRATEGY_ORDER as readonly string[]).indexOf(strategy.id));
    properties[`herald.${strategySettingKey(strategy.id, 'enabled')}`] = {
      type: 'boolean',
      default: editorDefaultEnabled(strategy),
      order: 100 + index * 2,
      markdownDescription: enabledDescription(strategy),
    };
    const options = strategyOptionProperty(strategy, 101 + index * 2);
    if (options !== undefined) properties[`herald.${strategySettingKey(strategy.id, 'options')}`] = options;
    Object.assign(properties, renamedSettingProperties(strategy.id, options !== undefined));
  }
  Object.assign(properties, retiredSettingProperties());
  return properties;
}

/** The built-in price table in one line: "`gpt-4.1` 2 / 0.5 / 0 / 8; …". */
export function builtInPricesText(): string {
  return Object.entries(DEFAULT_PRICES).map(([key, price]) => `\`${key}\` ${price.input} / ${price.cachedInput} / ${price.cacheWrite} / ${price.output}`).join('; ');
}

/** Every key Herald owns in `package.json`. */
export function manifestContributions(strategies: readonly Strategy[]): { contributes: Json; activationEvents: string[] } {
  return {
    activationEvents: ['onStartupFinished'],
    contributes: {
      commands: COMMANDS.map((command) => ({ ...command, category: 'Herald' })),
      menus: {
        'view/title': [
          { command: 'herald.retrieveElidedContent', when: 'view == herald.decisions', group: 'navigation@1' },
          { command: 'herald.exportSavingsReport', when: 'view == herald.decisions', group: 'navigation@2' },
          { command: 'herald.enableModels', when: 'view == herald.decisions', group: 'navigation@3' },
          { command: 'herald.newLibraryPage', when: 'view == herald.library', group: 'navigation@1' },
          { command: 'herald.reindexLibrary', when: 'view == herald.library', group: 'navigation@2' },
        ],
      },
      viewsContainers: { activitybar: [{ id: 'herald', title: 'Herald', icon: 'media/herald.svg' }] },
      views: {
        herald: [
          { type: 'webview', id: 'herald.decisions', name: 'Decisions', contextualTitle: 'Herald' },
          { type: 'webview', id: 'herald.library', name: 'Library', contextualTitle: 'Herald' },
        ],
      },
      viewsWelcome: [],
      configuration: { title: 'Herald', properties: configurationProperties(strategies) },
      // managementCommand: VS Code's Language Models editor offers it as the provider's "Manage" action.
      languageModelChatProviders: [{ vendor: 'herald', displayName: 'Herald', managementCommand: 'herald.manageEndpoints' }],
      chatParticipants: [
        {
          id: 'herald.participant',
          name: 'herald',
          fullName: 'Herald',
          description: "Ask anything: answered by the chat's model, with your team's knowledge library when the workspace has one",
          isSticky: false,
          commands: [
            { name: 'context', description: 'Show what the library says for a task, with links to its pages' },
            { name: 'explain', description: 'What Herald did to the last request, and why' },
          ],
        },
      ],
      languageModelTools: TOOLS,
    },
  };
}

/**
 * The keys a strategy's settings had before they took its id in camel case: still read when the
 * new key is unset, hidden in the Settings editor unless set, and pointing at the new key.
 */
function renamedSettingProperties(id: string, hasOptions: boolean): Json {
  const properties: Json = {};
  if (id in RETIRED_STRATEGIES) return properties;
  for (const field of hasOptions ? (['enabled', 'options'] as const) : (['enabled'] as const)) {
    const legacy = `herald.${legacyStrategySettingKey(id, field)}`;
    const current = `herald.${strategySettingKey(id, field)}`;
    if (legacy === current) continue;
    const message = `Renamed to \`${current}\` (the Settings editor shows strategy names in words). Herald still reads this setting when \`${current}\` is not set; move it there.`;
    properties[legacy] = { type: field === 'enabled' ? 'boolean' : 'object', markdownDeprecationMessage: message, markdownDescription: message };
  }
  return properties;
}

/** A strategy's on/off setting: its id and what it does (its schema's summary). */
function enabledDescription(strategy: Strategy): string {
  const summary = strategySummary(strategy.optionSchema) || `Runs the \`${strategy.id}\` strategy.`;
  const editor = EDITOR_STRATEGY_DEFAULTS[strategy.id];
  return `**\`${strategy.id}\`**: ${summary}${editor ? ` ${editor.why}` : ''}`;
}

/**
 * The setting holding a strategy's parameters: from its option schema, each parameter with
 * its type, default, bounds and description; without a schema, the names and defaults only.
 */
function strategyOptionProperty(strategy: Strategy, order: number): Json | undefined {
  if (strategy.optionSchema !== undefined) {
    const options = describeOptions(strategy.optionSchema);
    if (options.length === 0) return undefined;
    return {
      type: 'object',
      default: optionDefaults(strategy.optionSchema),
      order,
      additionalProperties: false,
      markdownDescription: `Parameters of \`${strategy.id}\` (a name not listed is rejected):\n\n${options.map((option) => `- \`${option.name}\`: ${optionSentence(option)}`).join('\n')}`,
      properties: Object.fromEntries(options.map((option) => [option.name, {
        type: option.type,
        default: option.default,
        ...(option.minimum !== undefined ? { minimum: option.minimum } : {}),
        ...(option.maximum !== undefined ? { maximum: option.maximum } : {}),
        ...(option.values !== undefined ? { enum: option.values } : {}),
        markdownDescription: optionSentence(option),
      }])),
    };
  }
  const defaults = strategy.defaults ?? {};
  if (Object.keys(defaults).length === 0) return undefined;
  return {
    type: 'object',
    default: defaults,
    order,
    additionalProperties: false,
    markdownDescription: `Parameters of \`${strategy.id}\`. Names not listed here are rejected.`,
    properties: Object.fromEntries(Object.entries(defaults).map(([name, value]) => [name, { type: jsonType(value), default: value }])),
  };
}

/** An option's description followed by its default and range: "… Default 0.8, from 0 to 1." */
export function optionSentence(option: OptionDescription): string {
  return `${option.description} Default ${formatValue(option.default)}${rangeText(option)}.`;
}

/** "from 0 to 1", "at least 1", one of the values, or nothing. */
export function rangeText(option: OptionDescription): string {
  if (option.values !== undefined) return `, one of ${option.values.map((value) => `\`${value}\``).join(', ')}`;
  if (option.minimum !== undefined && option.maximum !== undefined) return `, from ${option.minimum} to ${option.maximum}`;
  if (option.minimum !== undefined) return `, at least ${option.minimum}`;
  if (option.maximum !== undefined) return `, at most ${option.maximum}`;
  return '';
}

/** A default as the settings UI shows it. */
export function formatValue(value: unknown): string {
  if (typeof value === 'string') return value === '' ? 'empty' : `\`${value}\``;
  if (Array.isArray(value)) return value.length === 0 ? 'none' : value.map((item) => `\`${String(item)}\``).join(', ');
  return `\`${JSON.stringify(value)}\``;
}

function jsonType(value: unknown): string {
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'number') return 'number';
  if (typeof value === 'string') return 'string';
  if (Array.isArray(value)) return 'array';
  return 'object';
}

/**
 * Herald's `package.json` contributions, written from code so the settings follow the strategy
 * registry (every implemented strategy gets an on/off setting and a parameters setting with its
 * real defaults). `writeManifest.ts` puts them into package.json; a unit test fails when the two
 * drift apart.
 */
import { CACHED_REWRITE_MIN_SAVED_SHARE } from '../../core/pipeline/cacheEconomics';
import type { Strategy } from '../../core/pipeline/types';
import { STRATEGY_ORDER } from '../../core/strategies/index';
import { AGGRESSIVENESS, JUDGE_MODES } from '../settings/settingsSchema';
import { retiredSettingProperties } from '../settings/retiredStrategies';

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
];

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
    name: 'herald_retrieve',
    toolReferenceName: 'heraldRetrieve',
    displayName: 'Herald: Retrieve Elided Content',
    userDescription: 'The original behind a Herald marker',
    modelDescription:
      'Returns, byte for byte, the original content Herald replaced with a marker such as "[herald: 412 lines elided · retrieve hr_k2p4q7m3x9a5b6c1]". Call it with the handle when you need the exact text.',
    canBeReferencedInPrompt: true,
    icon: '$(unfold)',
    inputSchema: { type: 'object', properties: { handle: { type: 'string', description: 'The handle from the marker: hr_ followed by 16 letters and digits.' } }, required: ['handle'] },
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
    'herald.aggressiveness': { type: 'string', enum: [...AGGRESSIVENESS], default: 'balanced', order: 1, enumDescriptions: ['Keep anything that might matter.', 'The default trade-off.', 'Cut harder; rely more on retrieval.'], description: 'How hard the context filter cuts.' },
    'herald.endpoints': {
      type: 'array',
      default: [],
      order: 2,
      markdownDescription: 'Models Herald forwards to besides the ones VS Code already offers. Each becomes a **Herald · <name>** model. Add them with **Herald: Manage Endpoints**, which keeps the API key in secret storage (never here).',
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
    'herald.judge.mode': { type: 'string', enum: [...JUDGE_MODES], default: 'off', order: 4, enumDescriptions: ['Search only.', "Ask the chat's model to judge the sections, and only report what it would drop.", "Ask the chat's model and drop the sections it rejects."], description: "Whether @herald asks the chat's model to judge which library sections matter (one extra model call per question)." },
    'herald.embedding.modelFolder': { type: 'string', default: '', order: 5, markdownDescription: 'A local ONNX embedding model folder (`model.onnx` and `tokenizer.json` or `vocab.txt`, optionally `herald-model.json` with checksums) for meaning-based relevance in the optimizer, the library and the filter. Empty: lexical relevance only. Herald downloads nothing by itself; run **Herald: Download Embedding Model** to fetch a pinned, checksum-verified all-MiniLM-L6-v2 and fill this in.' },
    'herald.filter.qualityCheck': { type: 'boolean', default: true, order: 5.5, markdownDescription: 'After **@herald** answered with attachments the filter chose, ask the same model (one short extra call) whether the kept context was enough, and move the filter\'s threshold for @herald accordingly. The learned threshold is kept in Herald\'s global storage.' },
    'herald.contentMode': { type: 'boolean', default: false, order: 6, description: 'Record prompt text in decisions and logs. Off: decisions carry metadata only (sizes, actions, reasons).' },
    'herald.stash.ttlDays': { type: 'number', default: 7, minimum: 0.01, maximum: 365, order: 7, description: 'Days an unused elided original is kept for retrieval.' },
    'herald.stash.maxMegabytes': { type: 'number', default: 256, minimum: 1, order: 8, description: 'Megabytes of elided originals kept; the least recently used go first.' },
    'herald.strategyTimeLimitMs': { type: 'integer', default: 5000, minimum: 1, maximum: 60000, order: 9, description: 'Longest one strategy may run, in milliseconds; a slower one is skipped and the request goes on without it.' },
    'herald.cache.rewriteMinSavedShare': { type: 'number', default: CACHED_REWRITE_MIN_SAVED_SHARE, minimum: 0, maximum: 1, order: 9.5, markdownDescription: 'Least share (0–1) of an old tool output a history rewrite must remove. The provider has already cached the output as it stood, so a rewrite is billed as a cache write on that turn; the default 0.4 pays back within about 17 turns at Anthropic\'s prices (cache reads 0.1×, writes 1.25× the input price). With a provider that bills no cache write (OpenAI) a lower value saves more; 0 rewrites whatever saves a token.' },
    'herald.retrieve.maxRounds': { type: 'integer', default: 4, minimum: 0, maximum: 10, order: 10, markdownDescription: 'How many times in one turn Herald answers the model\'s `herald_retrieve` calls itself. 0 turns in-turn retrieval off.' },
  };
  for (const strategy of strategies) {
    // Ordered by the registry, so a strategy landing later does not renumber the others.
    const index = Math.max(0, (STRATEGY_ORDER as readonly string[]).indexOf(strategy.id));
    properties[`herald.strategy.${strategy.id}.enabled`] = {
      type: 'boolean',
      default: strategy.defaultEnabled,
      order: 100 + index * 2,
      markdownDescription: `Run the \`${strategy.id}\` strategy${strategy.kind === 'signal' ? ' (a read-only signal: it only records a decision)' : ''}.`,
    };
    const defaults = strategy.defaults ?? {};
    if (Object.keys(defaults).length > 0) {
      properties[`herald.strategy.${strategy.id}.options`] = {
        type: 'object',
        default: defaults,
        order: 101 + index * 2,
        additionalProperties: false,
        markdownDescription: `Parameters of \`${strategy.id}\`. Names not listed here are rejected.`,
        properties: Object.fromEntries(Object.entries(defaults).map(([name, value]) => [name, { type: jsonType(value), default: value }])),
      };
    }
  }
  Object.assign(properties, retiredSettingProperties());
  return properties;
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
      languageModelChatProviders: [{ vendor: 'herald', displayName: 'Herald' }],
      chatParticipants: [
        {
          id: 'herald.participant',
          name: 'herald',
          fullName: 'Herald',
          description: "Ask with your team's knowledge library",
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

function jsonType(value: unknown): string {
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'number') return 'number';
  if (typeof value === 'string') return 'string';
  if (Array.isArray(value)) return 'array';
  return 'object';
}

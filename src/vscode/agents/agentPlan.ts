/**
 * What "Herald: Connect Agent Extensions" writes, decided before anything is written, so the
 * user reads every entry first. Each agent extension is pointed at the gateway the extension
 * runs (`herald.gateway.*`), and the gateway at the endpoint the user picked; the agent keeps
 * its own API key (the gateway passes it on and stores none), so no key is written anywhere.
 *
 * - **Continue** reads `config.yaml` in its global folder (`$CONTINUE_GLOBAL_DIR`, else
 *   `~/.continue`) and reloads it on change: a model entry with `apiBase` at the gateway is
 *   added (an earlier Herald entry of the same name is replaced; the rest of the file, comments
 *   included, is kept).
 * - **Roo Code** imports a settings file named by its setting `roo-cline.autoImportSettingsPath`
 *   when it starts (src/utils/autoImportSettings.ts in RooCodeInc/Roo-Code): a "Herald" provider
 *   profile is written there and made current. Roo Code imports on every start, which would
 *   replace the profile (and the key the user typed into it), so Herald removes the setting and
 *   the file once Roo Code has imported it (agentConnection.ts).
 * - **Cline** keeps its provider settings in its own storage, which another extension cannot
 *   write safely: the plan lists the values to enter in Cline's settings.
 *
 * Pure: paths, settings and file contents in, the plan out.
 */
import { parseDocument, isMap, isSeq, type Document } from 'yaml';
import type { EndpointSettings } from '../settings/settingsSchema';

/** The agent extensions Herald connects, by extension id. */
export const AGENT_EXTENSIONS = [
  { id: 'Continue.continue', name: 'Continue' },
  { id: 'RooVeterinaryInc.roo-cline', name: 'Roo Code' },
  { id: 'saoudrizwan.claude-dev', name: 'Cline' },
] as const;

export type AgentName = (typeof AGENT_EXTENSIONS)[number]['name'];

/** The setting Roo Code reads its settings file to import from. */
export const ROO_IMPORT_SETTING = 'roo-cline.autoImportSettingsPath';

/** One thing the plan writes or asks the user to do. */
export type PlanStep =
  | { readonly kind: 'file'; readonly agent: AgentName; readonly path: string; readonly content: string; readonly existed: boolean; readonly summary: string }
  | { readonly kind: 'setting'; readonly agent: AgentName | 'Herald'; readonly key: string; readonly value: unknown; readonly before: unknown; readonly summary: string }
  | { readonly kind: 'manual'; readonly agent: AgentName; readonly instructions: readonly string[] };

export interface ConnectionPlan {
  readonly endpoint: EndpointSettings;
  /** The gateway's address (`http://127.0.0.1:<port>`). */
  readonly gatewayUrl: string;
  readonly steps: readonly PlanStep[];
}

export interface PlanInput {
  /** Names of the installed agent extensions. */
  readonly agents: readonly AgentName[];
  /** The endpoint the agents' requests go to (through the gateway). */
  readonly endpoint: EndpointSettings;
  /** Whether Herald holds a key for the endpoint (then the agents need one too). */
  readonly endpointHasKey: boolean;
  /** The gateway settings now. */
  readonly gateway: { readonly enabled: boolean; readonly port: number; readonly openaiBaseUrl: string; readonly anthropicBaseUrl: string };
  /** Continue's config.yaml: its path and its text now (undefined when there is none). */
  readonly continueConfig: { readonly path: string; readonly text: string | undefined };
  /** Where Herald writes Roo Code's import file, and the setting's value now. */
  readonly rooImport: { readonly path: string; readonly settingBefore: unknown };
}

/** The name of the Continue model entry Herald writes (replaced on the next connection). */
export function continueEntryName(endpoint: EndpointSettings): string {
  return `${endpoint.model} through Herald (${endpoint.name})`;
}

/** Where the gateway sends an endpoint's requests: OpenAI base URLs keep `/v1`, Anthropic ones go without it. */
export function gatewayUpstream(endpoint: EndpointSettings): { key: 'openaiBaseUrl' | 'anthropicBaseUrl'; url: string } | undefined {
  const url = endpoint.url.replace(/\/+$/, '');
  if (endpoint.kind === 'openai') return { key: 'openaiBaseUrl', url };
  // The gateway appends /v1/messages; Herald's own endpoint appends /messages to a URL that ends in /v1.
  return /\/v1$/.test(url) ? { key: 'anthropicBaseUrl', url: url.slice(0, -'/v1'.length) } : undefined;
}

export function planConnection(input: PlanInput): ConnectionPlan {
  const gatewayUrl = `http://127.0.0.1:${input.gateway.port}`;
  const { endpoint } = input;
  const openai = endpoint.kind === 'openai';
  const steps: PlanStep[] = [];
  if (!input.gateway.enabled) steps.push({ kind: 'setting', agent: 'Herald', key: 'herald.gateway.enabled', value: true, before: input.gateway.enabled, summary: `run the gateway in VS Code on ${gatewayUrl}` });
  const upstream = gatewayUpstream(endpoint);
  if (upstream && input.gateway[upstream.key] !== upstream.url) {
    steps.push({ kind: 'setting', agent: 'Herald', key: `herald.gateway.${upstream.key}`, value: upstream.url, before: input.gateway[upstream.key], summary: `the gateway sends ${openai ? 'OpenAI' : 'Anthropic'} requests to "${endpoint.name}"` });
  }
  for (const agent of input.agents) {
    if (agent === 'Continue') {
      const secret = openai ? 'OPENAI_API_KEY' : 'ANTHROPIC_API_KEY';
      const content = continueConfigWith(input.continueConfig.text, {
        name: continueEntryName(endpoint),
        provider: openai ? 'openai' : 'anthropic',
        model: endpoint.model,
        // Continue's Anthropic provider wants the /v1/ on its apiBase (its docs), its OpenAI one the /v1.
        apiBase: openai ? `${gatewayUrl}/v1` : `${gatewayUrl}/v1/`,
        // Continue resolves ${{ secrets.NAME }} from the .env file in its folder: the key stays out of config.yaml.
        ...(input.endpointHasKey ? { apiKey: `\${{ secrets.${secret} }}` } : {}),
      });
      const keyNote = input.endpointHasKey ? `; Continue sends its own key: put \`${secret}=<your key>\` in \`${input.continueConfig.path.replace(/config\.yaml$/, '.env')}\`` : '';
      steps.push({ kind: 'file', agent, path: input.continueConfig.path, content, existed: input.continueConfig.text !== undefined, summary: `a model "${continueEntryName(endpoint)}" whose apiBase is the gateway${keyNote}` });
    } else if (agent === 'Roo Code') {
      steps.push({ kind: 'file', agent, path: input.rooImport.path, content: rooImportFile(endpoint, gatewayUrl), existed: false, summary: `a "Herald" provider profile for Roo Code to import when it starts${input.endpointHasKey ? "; enter your endpoint's key in that profile once (Roo Code keeps it)" : ''}` });
      steps.push({ kind: 'setting', agent, key: ROO_IMPORT_SETTING, value: input.rooImport.path, before: input.rooImport.settingBefore, summary: 'Roo Code imports that file at its next start; Herald removes the setting and the file once it has' });
    } else {
      steps.push({ kind: 'manual', agent, instructions: clineInstructions(endpoint, gatewayUrl) });
    }
  }
  return { endpoint, gatewayUrl, steps };
}

/** The model entry Continue gets. */
export interface ContinueModel {
  readonly name: string;
  readonly provider: 'openai' | 'anthropic';
  readonly model: string;
  readonly apiBase: string;
  readonly apiKey?: string;
}

/**
 * Continue's config.yaml with the entry added (or an entry of the same name replaced); the rest
 * of the file, its comments and order, kept as they are. A new file gets Continue's minimal
 * header (name, version, schema).
 */
export function continueConfigWith(text: string | undefined, model: ContinueModel): string {
  const document: Document = text === undefined || text.trim() === '' ? parseDocument('name: Local Config\nversion: 1.0.0\nschema: v1\n') : parseDocument(text);
  if (document.errors.length > 0) throw new Error(`Herald: Continue's config.yaml does not parse (${document.errors[0]!.message}); fix it or add the entry by hand`);
  if (!isMap(document.contents)) throw new Error("Herald: Continue's config.yaml is not a mapping; add the entry by hand");
  let models = document.get('models');
  if (models === undefined || models === null) {
    document.set('models', document.createNode([]));
    models = document.get('models');
  }
  if (!isSeq(models)) throw new Error("Herald: `models` in Continue's config.yaml is not a list; add the entry by hand");
  const node = document.createNode({ name: model.name, provider: model.provider, model: model.model, apiBase: model.apiBase, ...(model.apiKey ? { apiKey: model.apiKey } : {}), roles: ['chat', 'edit', 'apply'] });
  const index = models.items.findIndex((item) => isMap(item) && item.get('name') === model.name);
  if (index >= 0) models.items[index] = node;
  else models.items.push(node);
  return document.toString();
}

/** Roo Code's import file: one provider profile, made current, with no key (Roo Code asks for it). */
export function rooImportFile(endpoint: EndpointSettings, gatewayUrl: string): string {
  const profile =
    endpoint.kind === 'openai'
      ? { apiProvider: 'openai', openAiBaseUrl: `${gatewayUrl}/v1`, openAiModelId: endpoint.model }
      : { apiProvider: 'anthropic', anthropicBaseUrl: gatewayUrl, apiModelId: endpoint.model };
  return `${JSON.stringify({ providerProfiles: { currentApiConfigName: 'Herald', apiConfigs: { Herald: profile } } }, null, 2)}\n`;
}

/** What to enter in Cline's settings (⚙️ in its view). */
export function clineInstructions(endpoint: EndpointSettings, gatewayUrl: string): string[] {
  return endpoint.kind === 'openai'
    ? ['API Provider: **OpenAI Compatible**', `Base URL: \`${gatewayUrl}/v1\``, "API Key: your endpoint's key (Cline keeps it; the gateway passes it on)", `Model ID: \`${endpoint.model}\``]
    : ['API Provider: **Anthropic**', `Tick **Use custom base URL** and enter \`${gatewayUrl}\``, 'API Key: your Anthropic key', `Model: \`${endpoint.model}\``];
}

/** The plan as the Markdown the user reads before anything is written. */
export function renderPlan(plan: ConnectionPlan): string {
  const lines = [
    '# Herald: Connect Agent Extensions',
    '',
    `Each agent's requests go to Herald's gateway in VS Code (${plan.gatewayUrl}), which optimizes them and forwards them to **${plan.endpoint.name}** (${plan.endpoint.url}, model \`${plan.endpoint.model}\`). Each agent keeps its own API key: the gateway passes it on and stores none. Nothing is written until you choose **Write** in the dialog.`,
  ];
  for (const step of plan.steps) {
    lines.push('');
    if (step.kind === 'setting') {
      lines.push(`## ${step.agent}: setting \`${step.key}\``, '', `${step.summary}.`, '', '```json', `"${step.key}": ${JSON.stringify(step.value)}`, '```', `(now: ${step.before === undefined ? 'not set' : `\`${JSON.stringify(step.before)}\``})`);
    } else if (step.kind === 'file') {
      lines.push(`## ${step.agent}: ${step.existed ? 'update' : 'create'} \`${step.path}\``, '', `${step.summary}. The whole file after the change:`, '', `\`\`\`${step.path.endsWith('.json') ? 'json' : 'yaml'}`, step.content.trimEnd(), '```');
    } else {
      lines.push(`## ${step.agent}: set by hand`, '', "Cline keeps its provider settings in its own storage, which another extension cannot write safely. In Cline's settings (⚙️):", '', ...step.instructions.map((line) => `- ${line}`));
    }
  }
  return `${lines.join('\n')}\n`;
}

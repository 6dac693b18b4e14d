/**
 * "Herald: Connect Agent Extensions": points the agent extensions the user has installed
 * (Continue, Roo Code, Cline) at the gateway Herald runs in VS Code, after showing every entry it
 * would write and asking. See agentPlan.ts for what each agent gets and why. Also finishes a Roo
 * Code connection: once Roo Code has imported Herald's profile (at its first start after the
 * connection), its import setting and file are removed, so a later start does not import again
 * over the key the user typed into the profile.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { describeError } from '../../core/errors';
import { writeFileAtomic } from '../../core/files';
import { readGatewaySettings, type GatewaySettings } from '../gateway/gatewaySettings';
import type { HeraldHost } from '../host/heraldHost';
import type { EndpointSettings } from '../settings/settingsSchema';
import { AGENT_EXTENSIONS, planConnection, renderPlan, ROO_IMPORT_SETTING, type AgentName, type ConnectionPlan } from './agentPlan';

export const CONNECT_AGENTS_COMMAND = 'herald.connectAgents';
/** Where Herald keeps an endpoint's key in secret storage (the endpoint manager's prefix). */
const ENDPOINT_KEY_PREFIX = 'herald.endpointKey.';
/** A Roo Code import Herald set up and has not cleaned up yet. */
const ROO_PENDING = 'herald.agents.rooImportPending';

interface RooPending {
  readonly file: string;
  readonly settingBefore: unknown;
  /** The window session that set it up: Roo Code imports at a later start. */
  readonly session: string;
}

/** The agent extensions installed in this VS Code. */
export function installedAgents(): AgentName[] {
  return AGENT_EXTENSIONS.filter((agent) => vscode.extensions.getExtension(agent.id) !== undefined).map((agent) => agent.name);
}

/** Continue's global folder, as Continue finds it. */
function continueFolder(): string {
  return process.env.CONTINUE_GLOBAL_DIR || path.join(os.homedir(), '.continue');
}

/** The read-only document that shows a plan before anything is written (no save prompt when closed). */
const PLAN_SCHEME = 'herald-agents';

export function registerAgents(host: HeraldHost): vscode.Disposable[] {
  void finishRooImport(host);
  const plans = new PlanDocuments();
  return [
    vscode.workspace.registerTextDocumentContentProvider(PLAN_SCHEME, plans),
    plans,
    vscode.commands.registerCommand(CONNECT_AGENTS_COMMAND, () => connectAgents(host, plans)),
  ];
}

/** The plan's text by document, for the read-only preview. */
class PlanDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly texts = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  show(text: string): vscode.Uri {
    const uri = vscode.Uri.from({ scheme: PLAN_SCHEME, path: '/Connect Agent Extensions.md' });
    this.texts.set(uri.toString(), text);
    this.changed.fire(uri);
    return uri;
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? '';
  }

  dispose(): void {
    this.changed.dispose();
  }
}

async function connectAgents(host: HeraldHost, plans: PlanDocuments): Promise<void> {
  const agents = installedAgents();
  if (agents.length === 0) {
    await vscode.window.showInformationMessage('Herald: no agent extension is installed (Continue, Cline or Roo Code). Install one and run this command again; without one, @herald in the chat answers with your endpoint.');
    return;
  }
  const endpoint = await pickEndpoint(host, agents);
  if (!endpoint) return;
  const gatewayConfiguration = vscode.workspace.getConfiguration('herald.gateway');
  const gateway = readGatewaySettings((key: keyof GatewaySettings) => gatewayConfiguration.get(key)).settings;
  const configFile = path.join(continueFolder(), 'config.yaml');
  let plan: ConnectionPlan;
  try {
    plan = planConnection({
      agents,
      endpoint,
      endpointHasKey: (await host.context.secrets.get(ENDPOINT_KEY_PREFIX + endpoint.name)) !== undefined,
      gateway,
      continueConfig: { path: configFile, text: fs.existsSync(configFile) ? fs.readFileSync(configFile, 'utf8') : undefined },
      rooImport: { path: path.join(host.context.globalStorageUri.fsPath, 'agents', 'roo-code-herald.json'), settingBefore: vscode.workspace.getConfiguration().inspect(ROO_IMPORT_SETTING)?.globalValue },
    });
  } catch (error) {
    void vscode.window.showErrorMessage(describeError(error));
    return;
  }
  // What will be written, read before anything is: a read-only Markdown document beside the dialog.
  const preview = await vscode.workspace.openTextDocument(plans.show(renderPlan(plan)));
  await vscode.languages.setTextDocumentLanguage(preview, 'markdown');
  await vscode.window.showTextDocument(preview, { preview: true, viewColumn: vscode.ViewColumn.Active });
  const writes = plan.steps.filter((step) => step.kind !== 'manual').length;
  const choice = await vscode.window.showInformationMessage(
    `Herald: connect ${agents.join(', ')} to the gateway and "${endpoint.name}"? ${writes} ${writes === 1 ? 'entry' : 'entries'} will be written, as the document shows.`,
    { modal: true },
    'Write',
  );
  if (choice !== 'Write') return;
  try {
    await applyPlan(host, plan);
  } catch (error) {
    void vscode.window.showErrorMessage(`Herald: connecting the agents failed: ${describeError(error)}. Nothing after that step was written.`);
    return;
  }
  host.logger.info('agents-connected', `Herald: connected ${agents.join(', ')} to the gateway (${plan.gatewayUrl}) and "${endpoint.name}"`);
  const roo = plan.steps.some((step) => step.kind === 'setting' && step.key === ROO_IMPORT_SETTING);
  const cline = agents.includes('Cline');
  const buttons = [...(roo ? ['Reload Window'] : []), ...(cline ? ['Copy Base URL for Cline'] : [])];
  const picked = await vscode.window.showInformationMessage(
    `Herald: ${agents.filter((agent) => agent !== 'Cline').join(' and ') || 'nothing'} connected to the gateway on ${plan.gatewayUrl}.${roo ? ' Roo Code imports its Herald profile when it starts: reload the window.' : ''}${cline ? ' Cline: enter the values the document lists in its settings.' : ''}`,
    ...buttons,
  );
  if (picked === 'Reload Window') await vscode.commands.executeCommand('workbench.action.reloadWindow');
  else if (picked === 'Copy Base URL for Cline') await vscode.env.clipboard.writeText(endpoint.kind === 'openai' ? `${plan.gatewayUrl}/v1` : plan.gatewayUrl);
}

/** The endpoint the agents' requests go to: the only one, or the user's pick; none yet offers to add one. */
async function pickEndpoint(host: HeraldHost, agents: readonly AgentName[]): Promise<EndpointSettings | undefined> {
  const endpoints = host.settings().endpoints;
  if (endpoints.length === 0) {
    const choice = await vscode.window.showInformationMessage(
      `Herald: connecting ${agents.join(', ')} needs the endpoint their requests go to (its URL and model; the agent keeps its own key). Add one first, then run this command again.`,
      'Add an Endpoint',
    );
    if (choice === 'Add an Endpoint') await vscode.commands.executeCommand('herald.manageEndpoints');
    return undefined;
  }
  if (endpoints.length === 1) return endpoints[0];
  const picked = await vscode.window.showQuickPick(
    endpoints.map((endpoint) => ({ label: endpoint.name, description: `${endpoint.kind} · ${endpoint.model} · ${endpoint.url}`, endpoint })),
    { title: 'Herald: which endpoint should the agents use (through the gateway)?' },
  );
  return picked?.endpoint;
}

async function applyPlan(host: HeraldHost, plan: ConnectionPlan): Promise<void> {
  const configuration = vscode.workspace.getConfiguration();
  for (const step of plan.steps) {
    if (step.kind === 'file') {
      fs.mkdirSync(path.dirname(step.path), { recursive: true });
      // The user's own file is kept beside the new one, once.
      if (step.existed && !fs.existsSync(`${step.path}.before-herald`)) fs.copyFileSync(step.path, `${step.path}.before-herald`);
      writeFileAtomic(step.path, step.content);
    } else if (step.kind === 'setting') {
      await configuration.update(step.key, step.value, vscode.ConfigurationTarget.Global);
      if (step.key === ROO_IMPORT_SETTING) {
        const pending: RooPending = { file: String(step.value), settingBefore: step.before, session: vscode.env.sessionId };
        await host.context.globalState.update(ROO_PENDING, pending);
      }
    }
  }
}

/** After Roo Code imported Herald's profile (a start later than the connection), removes the import setting and file. */
async function finishRooImport(host: HeraldHost): Promise<void> {
  const pending = host.context.globalState.get<RooPending>(ROO_PENDING);
  if (!pending || pending.session === vscode.env.sessionId) return;
  const roo = vscode.extensions.getExtension(AGENT_EXTENSIONS[1].id);
  try {
    // Roo Code imports inside its activate(): once that has finished, the profile is in.
    if (roo) await roo.activate();
    if (vscode.workspace.getConfiguration().inspect(ROO_IMPORT_SETTING)?.globalValue === pending.file) {
      await vscode.workspace.getConfiguration().update(ROO_IMPORT_SETTING, pending.settingBefore, vscode.ConfigurationTarget.Global);
    }
    fs.rmSync(pending.file, { force: true });
    await host.context.globalState.update(ROO_PENDING, undefined);
    host.logger.info('roo-import-done', `Herald: Roo Code imported its Herald profile; ${ROO_IMPORT_SETTING} and ${pending.file} are removed, so it is not imported again`);
  } catch (error) {
    host.logger.warn('roo-import-unfinished', `Herald: could not finish the Roo Code connection (${describeError(error)}); remove the setting ${ROO_IMPORT_SETTING} by hand`);
  }
}

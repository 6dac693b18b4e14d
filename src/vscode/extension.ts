/**
 * Herald's activation: build the shared host, then let each contribution register itself.
 * One failing contribution is logged and the rest still activate.
 */
import * as vscode from 'vscode';
import { HeraldChatProvider, HERALD_VENDOR } from './chat/heraldChatProvider';
import * as path from 'node:path';
import { REMEMBERED_MODELS_FILE, rememberedModelsFile } from './chat/rememberedModels';
import { ChosenChatModel } from './chat/chosenChatModel';
import { createVscodePartKit } from './chat/vscodePartKit';
import { registerOriginalDocuments } from './commands/originalDocuments';
import { registerOriginalView } from './commands/originalView';
import { registerCommands } from './commands/registerCommands';
import { DefaultChatModel } from './agents/defaultChatModel';
import { registerAgents } from './agents/registerAgents';
import { registerGateway } from './gateway/registerGateway';
import { EndpointManager } from './endpoints/endpointManager';
import { HeraldHost } from './host/heraldHost';
import { registerStatusBar } from './host/registerStatusBar';
import { offerCopilotModels, registerWelcome } from './host/registerWelcome';
import { registerParticipant } from './knowledge/registerParticipant';
import { registerTools } from './knowledge/registerTools';
import { registerSidebar } from './sidebar/registerSidebar';
import { describeError } from '../core/errors';

/** What the extension exports to other extensions: the session's request records, metadata only. */
export interface HeraldApi {
  /** The session's request records, newest last. */
  requests(): readonly unknown[];
  /** The totals of every request recorded (tokens saved, failures, premium requests, money). */
  totals(): unknown;
}

export async function activate(context: vscode.ExtensionContext): Promise<HeraldApi> {
  const host = await HeraldHost.create(context);
  context.subscriptions.push(host);
  const endpoints = new EndpointManager(host);
  // Without Copilot, Herald's first model is the chat's default (else VS Code's chat has no model at all).
  const defaultModel = new DefaultChatModel(host.logger);
  context.subscriptions.push(defaultModel);
  // The chat's chosen Herald model, chosen again after a reload (VS Code falls back to its default).
  const chosenModel = new ChosenChatModel(context.globalState, host.logger, HERALD_VENDOR);

  const contributions: [string, () => vscode.Disposable[]][] = [
    ['model provider', () => registerModelProvider(host, endpoints, defaultModel, chosenModel)],
    ['commands', () => registerCommands(host, endpoints)],
    ['original documents', () => [...registerOriginalDocuments(host), ...registerOriginalView(host)]],
    ['sidebar', () => registerSidebar(host)],
    ['status bar', () => registerStatusBar(host)],
    ['tools', () => registerTools(host)],
    ['@herald participant', () => registerParticipant(host, chosenModel)],
    ['welcome', () => registerWelcome(host)],
    ['gateway', () => registerGateway(host)],
    ['agent extensions', () => registerAgents(host)],
  ];
  for (const [name, register] of contributions) {
    try {
      context.subscriptions.push(...register());
    } catch (error) {
      host.logger.error('contribution-failed', `Herald: the ${name} could not be registered: ${describeError(error)}`);
    }
  }
  host.logger.info('activated', 'Herald: activated');
  return { requests: () => host.log.list(), totals: () => host.log.sessionTotals() };
}

function registerModelProvider(host: HeraldHost, endpoints: EndpointManager, defaultModel: DefaultChatModel, chosenModel: ChosenChatModel): vscode.Disposable[] {
  const provider = new HeraldChatProvider({
    kit: createVscodePartKit(),
    log: host.log,
    logger: host.logger,
    settings: () => host.settings(),
    optimizer: () => host.optimizer,
    endpointTargets: () => endpoints.list(),
    copilotHostedListed: () => host.settings().copilotHostedModels === 'show',
    memory: rememberedModelsFile(path.join(host.context.globalStorageUri.fsPath, REMEMBERED_MODELS_FILE), host.logger),
    chatModelUsed: (model) => chosenModel.observe(model),
  });
  const refresh = async (): Promise<void> => {
    // Once VS Code listed every provider's models, a default among them, the chat's Herald model is chosen again.
    if (await provider.refresh()) await chosenModel.restore(provider.targets().map((target) => target.information.id), provider.copilotHostedTargets().length > 0 || defaultModel.offers());
    // Copilot-hosted models bill premium requests: listed only once the user has read that.
    void offerCopilotModels(host, provider.copilotHostedTargets().length);
  };
  // Models listed during activation come back "Canceled": ask after start-up, then on every change.
  const timer = setTimeout(() => void refresh(), 2000);
  return [
    provider,
    vscode.lm.registerLanguageModelChatProvider(HERALD_VENDOR, defaultModel.wrap(provider)),
    vscode.lm.onDidChangeChatModels(() => void refresh()),
    host.onDidChangeSettings(() => {
      endpoints.rebuild();
      provider.notifyIfChanged();
    }),
    new vscode.Disposable(() => clearTimeout(timer)),
  ];
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}

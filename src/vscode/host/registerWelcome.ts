/**
 * The first minutes. VS Code lists a third-party provider's models in the chat's model picker
 * only after the user enables them under Manage Models, so Herald keeps a permanent way there
 * ("Herald: Enable Herald Models", the Decisions view's button, the status bar item before the
 * first request) besides the one-time welcome. Copilot-hosted models bill a premium request for
 * every request Herald sends; with `herald.copilotHostedModels` at "ask" they are listed only
 * after the user has read that and chosen to list them.
 */
import * as vscode from 'vscode';
import { PREMIUM_MULTIPLIER_URL } from '../../core/costs/billing';
import type { HeraldHost } from './heraldHost';
import { CONNECT_AGENTS_COMMAND, installedAgents } from '../agents/registerAgents';
import { copilotTradeoffText, noChatModelText, WELCOME_TEXT } from './welcomeText';

const WELCOMED = 'herald.welcomed';
/** VS Code has renamed this command across versions; the first that exists is used. */
const MANAGE_MODELS_COMMANDS = ['workbench.action.chat.manage', 'workbench.action.chat.manageLanguageModels'];

export const ENABLE_MODELS_COMMAND = 'herald.enableModels';

export function registerWelcome(host: HeraldHost): vscode.Disposable[] {
  const disposables = [vscode.commands.registerCommand(ENABLE_MODELS_COMMAND, () => openManageModels(host))];
  if (!host.context.globalState.get<boolean>(WELCOMED)) {
    void host.context.globalState.update(WELCOMED, true);
    void (async () => {
      if ((await chatModelCount()) === 0) {
        // No Copilot and no endpoint: nothing in the chat can answer yet. Say what can.
        const agents = installedAgents();
        const choice = await vscode.window.showInformationMessage(noChatModelText(agents), 'Add an Endpoint', ...(agents.length > 0 ? ['Connect Agents'] : []), 'Open Herald');
        if (choice === 'Add an Endpoint') await vscode.commands.executeCommand('herald.manageEndpoints');
        else if (choice === 'Connect Agents') await vscode.commands.executeCommand(CONNECT_AGENTS_COMMAND);
        else if (choice === 'Open Herald') await vscode.commands.executeCommand('herald.showDecisions');
        return;
      }
      const choice = await vscode.window.showInformationMessage(WELCOME_TEXT, 'Manage Models', 'Add an Endpoint', 'Open Herald');
      if (choice === 'Manage Models') await openManageModels(host);
      else if (choice === 'Add an Endpoint') await vscode.commands.executeCommand('herald.manageEndpoints');
      else if (choice === 'Open Herald') await vscode.commands.executeCommand('herald.showDecisions');
    })();
  }
  return disposables;
}

/**
 * How many chat models this VS Code has (Herald's own included: endpoints and the models it
 * wraps), or undefined when VS Code would not say. Listed a moment after start-up, since VS Code
 * answers "Canceled" during activation.
 */
async function chatModelCount(): Promise<number | undefined> {
  for (let attempt = 0; attempt < 6; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    try {
      return (await vscode.lm.selectChatModels()).length;
    } catch {
      // Not ready yet: ask again.
    }
  }
  // Unknown: the usual notice, which leads to Manage Models and the endpoints either way.
  return undefined;
}

/** Opens VS Code's Manage Models (the Language Models editor), where the Herald entries are enabled. */
export async function openManageModels(host: HeraldHost): Promise<void> {
  const available = new Set(await vscode.commands.getCommands(true));
  const command = MANAGE_MODELS_COMMANDS.find((candidate) => available.has(candidate));
  if (command) await vscode.commands.executeCommand(command);
  else {
    host.logger.warn('manage-models-missing', 'Herald: this VS Code has no Manage Models command; open the chat model picker and choose "Manage Models…"');
    void vscode.window.showInformationMessage('Herald: open the chat model picker and choose "Manage Models…" to enable the Herald models.');
  }
}


let noticeShown = false;

/** Once per window, when Copilot-hosted models exist and the setting says "ask": explain the cost and let the user list them. */
export async function offerCopilotModels(host: HeraldHost, count: number): Promise<void> {
  if (noticeShown || count === 0 || host.settings().copilotHostedModels !== 'ask') return;
  noticeShown = true;
  const choice = await vscode.window.showInformationMessage(copilotTradeoffText(count), 'List Them', 'Keep Them Hidden', 'Multipliers');
  const configuration = vscode.workspace.getConfiguration('herald');
  if (choice === 'List Them') await configuration.update('copilotHostedModels', 'show', vscode.ConfigurationTarget.Global);
  else if (choice === 'Keep Them Hidden') await configuration.update('copilotHostedModels', 'hide', vscode.ConfigurationTarget.Global);
  else if (choice === 'Multipliers') await vscode.env.openExternal(vscode.Uri.parse(PREMIUM_MULTIPLIER_URL));
  if (choice === 'List Them' || choice === 'Keep Them Hidden') host.reloadSettings();
}

/**
 * The first minute: once per install, say what Herald is and the one step VS Code requires
 * before its models can be picked in the chat (third-party models start hidden until the
 * user enables them under Manage Models).
 */
import * as vscode from 'vscode';
import type { HeraldHost } from './heraldHost';

const WELCOMED = 'herald.welcomed';
/** VS Code has renamed this command across versions; the first that exists is used. */
const MANAGE_MODELS_COMMANDS = ['workbench.action.chat.manage', 'workbench.action.chat.manageLanguageModels'];

export function registerWelcome(host: HeraldHost): vscode.Disposable[] {
  if (host.context.globalState.get<boolean>(WELCOMED)) return [];
  void host.context.globalState.update(WELCOMED, true);
  void (async () => {
    const choice = await vscode.window.showInformationMessage(
      'Herald is ready: pick a "Herald · …" model in the chat and every request gets smaller. VS Code lists new models only once you enable them under Manage Models.',
      'Manage Models',
      'Add an Endpoint',
      'Open Herald',
    );
    if (choice === 'Manage Models') await openManageModels(host);
    else if (choice === 'Add an Endpoint') await vscode.commands.executeCommand('herald.manageEndpoints');
    else if (choice === 'Open Herald') await vscode.commands.executeCommand('herald.showDecisions');
  })();
  return [];
}

async function openManageModels(host: HeraldHost): Promise<void> {
  const available = new Set(await vscode.commands.getCommands(true));
  const command = MANAGE_MODELS_COMMANDS.find((candidate) => available.has(candidate));
  if (command) await vscode.commands.executeCommand(command);
  else {
    host.logger.warn('manage-models-missing', 'Herald: this VS Code has no Manage Models command; open the chat model picker and choose "Manage Models…"');
    void vscode.window.showInformationMessage('Open the chat model picker and choose "Manage Models…" to enable the Herald models.');
  }
}

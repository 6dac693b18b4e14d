/** The activity bar container "Herald" with its two webview views: Decisions and Library. */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { PREMIUM_MULTIPLIER_URL } from '../../core/costs/billing';
import { PRICES_CHECKED } from '../../core/costs/prices';
import type { HeraldHost } from '../host/heraldHost';
import type { HostMessage, WebviewMessage } from '../../webview/protocol';
import { requestView } from './requestView';
import { SidebarView } from './sidebarView';

export const DECISIONS_VIEW = 'herald.decisions';
export const LIBRARY_VIEW = 'herald.library';

const COMMAND_OF: Record<Extract<WebviewMessage, { type: 'command' }>['command'], string> = {
  'export-report': 'herald.exportSavingsReport',
  'toggle-optimizer': 'herald.toggleOptimizer',
  'manage-endpoints': 'herald.manageEndpoints',
  'new-page': 'herald.newLibraryPage',
  reindex: 'herald.reindexLibrary',
  retrieve: 'herald.retrieveElidedContent',
  'enable-models': 'herald.enableModels',
  'open-prices': 'herald.openPriceTable',
  'open-multipliers': 'herald.openPremiumMultipliers',
};

export function registerSidebar(host: HeraldHost): vscode.Disposable[] {
  const onMessage = async (message: WebviewMessage): Promise<void> => {
    switch (message.type) {
      case 'open-handle':
        await vscode.commands.executeCommand('herald.retrieveElidedContent', message.handle);
        return;
      case 'open-page': {
        const root = host.library.root();
        if (!root) return;
        const file = path.resolve(root, message.path);
        // Only files inside the library: the path came from the webview.
        if (!file.startsWith(root + path.sep)) throw new Error(`Herald: ${message.path} is outside the library`);
        await vscode.window.showTextDocument(vscode.Uri.file(file), { preview: true });
        return;
      }
      case 'search':
        host.library.search(message.query);
        return;
      case 'command':
        await vscode.commands.executeCommand(COMMAND_OF[message.command]);
        return;
      case 'ready':
        return;
    }
  };
  const decisions = new SidebarView(host.context.extensionUri, { viewId: DECISIONS_VIEW, entry: 'decisions', title: 'Herald decisions', snapshot: () => decisionsMessage(host), onMessage }, host.logger);
  const library = new SidebarView(host.context.extensionUri, { viewId: LIBRARY_VIEW, entry: 'library', title: 'Herald library', snapshot: (): HostMessage => ({ type: 'library', library: host.library.view() }), onMessage }, host.logger);
  return [
    vscode.window.registerWebviewViewProvider(DECISIONS_VIEW, decisions, { webviewOptions: { retainContextWhenHidden: false } }),
    vscode.window.registerWebviewViewProvider(LIBRARY_VIEW, library),
    host.log.onDidChange(() => decisions.update()),
    host.onDidChangeSettings(() => decisions.update()),
    host.library.onDidChange(() => library.update()),
  ];
}

function decisionsMessage(host: HeraldHost): HostMessage {
  return { type: 'decisions', requests: host.log.list().map(requestView), totals: host.log.sessionTotals(), optimizerEnabled: host.settings().enabled, multiplierUrl: PREMIUM_MULTIPLIER_URL, pricesChecked: PRICES_CHECKED };
}

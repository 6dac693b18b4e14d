/** The "Herald: …" commands of the palette. */
import * as vscode from 'vscode';
import { downloadEmbeddingModel } from '../embedding/downloadCommand';
import type { EndpointManager } from '../endpoints/endpointManager';
import type { HeraldHost } from '../host/heraldHost';
import { DECISIONS_VIEW, LIBRARY_VIEW } from '../sidebar/registerSidebar';
import { exportSavingsReport } from './exportReport';
import { newLibraryPage, reindexLibrary } from './libraryCommands';
import { retrieveElidedContent } from './retrieveContent';
import { describeError } from '../../core/errors';
import { PREMIUM_MULTIPLIER_URL } from '../../core/costs/billing';

export function registerCommands(host: HeraldHost, endpoints: EndpointManager): vscode.Disposable[] {
  const commands: Record<string, (...args: unknown[]) => unknown> = {
    'herald.retrieveElidedContent': (handle) => retrieveElidedContent(host, handle),
    'herald.showDecisions': () => vscode.commands.executeCommand(`${DECISIONS_VIEW}.focus`),
    'herald.openLibrary': () => vscode.commands.executeCommand(`${LIBRARY_VIEW}.focus`),
    'herald.newLibraryPage': () => newLibraryPage(host),
    'herald.reindexLibrary': () => reindexLibrary(host),
    'herald.exportSavingsReport': (target) => exportSavingsReport(host, target instanceof vscode.Uri ? target : undefined),
    'herald.toggleOptimizer': async () => {
      // Read the stored value, not the cached one: a change event may still be on its way.
      const enabled = vscode.workspace.getConfiguration('herald').get<boolean>('enabled') === false;
      await vscode.workspace.getConfiguration('herald').update('enabled', enabled, vscode.ConfigurationTarget.Global);
      host.reloadSettings();
      void vscode.window.showInformationMessage(enabled ? 'Herald: the optimizer is on.' : 'Herald: the optimizer is off; Herald models forward requests untouched.');
    },
    'herald.manageEndpoints': () => endpoints.manage(),
    'herald.showLog': () => host.channel.show(true),
    'herald.downloadEmbeddingModel': () => downloadEmbeddingModel(host),
    'herald.openPriceTable': () => vscode.commands.executeCommand('workbench.action.openSettingsJson', { revealSetting: { key: 'herald.prices', edit: true } }),
    'herald.openPremiumMultipliers': () => vscode.env.openExternal(vscode.Uri.parse(PREMIUM_MULTIPLIER_URL)),
  };
  return Object.entries(commands).map(([id, run]) =>
    vscode.commands.registerCommand(id, async (...args: unknown[]) => {
      try {
        await run(...args);
      } catch (error) {
        const message = describeError(error);
        host.logger.error('command-failed', `Herald: ${id} failed: ${message}`);
        void vscode.window.showErrorMessage(message.startsWith('Herald:') ? message : `Herald: ${message}`);
      }
    }),
  );
}

/** The status bar item: tokens saved this session; a click opens the Decisions view. */
import * as vscode from 'vscode';
import type { HeraldHost } from './heraldHost';
import { statusText } from './statusText';
import { gatewayStatus } from '../gateway/gatewayStatus';

export function registerStatusBar(host: HeraldHost): vscode.Disposable[] {
  const item = vscode.window.createStatusBarItem('herald.savings', vscode.StatusBarAlignment.Right, 100);
  item.name = 'Herald savings';
  item.command = 'herald.showDecisions';
  const update = (): void => {
    const totals = host.log.sessionTotals();
    const { text, tooltip } = statusText(totals, host.settings().enabled);
    item.text = text;
    item.tooltip = tooltip + gatewayStatus.tooltipLine();
    // Before the first request the likely next step is enabling the models; after it, the decisions.
    item.command = totals.requests === 0 ? 'herald.enableModels' : 'herald.showDecisions';
  };
  update();
  item.show();
  return [item, host.log.onDidChange(update), host.onDidChangeSettings(update), gatewayStatus.onDidChange(update)];
}

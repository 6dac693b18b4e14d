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
    const { text, tooltip } = statusText(host.log.sessionTotals(), host.settings().enabled);
    item.text = text;
    item.tooltip = tooltip + gatewayStatus.tooltipLine();
  };
  update();
  item.show();
  return [item, host.log.onDidChange(update), host.onDidChangeSettings(update), gatewayStatus.onDidChange(update)];
}

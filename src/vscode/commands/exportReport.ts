/** "Export Savings Report": the session's requests as CSV or JSON. */
import * as vscode from 'vscode';
import { savingsReportCsv, savingsReportJson } from '../decisions/decisionLog';
import type { HeraldHost } from '../host/heraldHost';

export async function exportSavingsReport(host: HeraldHost, target?: vscode.Uri): Promise<void> {
  let uri = target;
  if (!uri) {
    const stamp = new Date().toISOString().slice(0, 19).replace(/[:T]/g, '-');
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    uri = await vscode.window.showSaveDialog({
      title: 'Herald: Export Savings Report',
      defaultUri: folder ? vscode.Uri.joinPath(folder, `herald-savings-${stamp}.csv`) : undefined,
      filters: { CSV: ['csv'], JSON: ['json'] },
    });
  }
  if (!uri) return;
  const records = host.log.list();
  const text = uri.path.toLowerCase().endsWith('.json') ? savingsReportJson(records, host.log.sessionTotals()) : savingsReportCsv(records);
  await vscode.workspace.fs.writeFile(uri, Buffer.from(text, 'utf8'));
  void vscode.window.showInformationMessage(`Herald: savings report with ${records.length} requests written to ${uri.fsPath}.`);
}

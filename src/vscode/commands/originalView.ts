/**
 * Shows an elided original in a read-only webview of Herald's own, not a text editor: VS Code
 * attaches the active text editor (whatever its scheme) to the next chat message as implicit
 * context (microsoft/vscode `chatImplicitContext.ts` takes any active code editor's model), so
 * an original opened as a document went back to the model in full. A webview is not attached.
 * "Open as Text" (with that warning) and "Copy" are there for the user who wants either.
 */
import * as vscode from 'vscode';
import type { HeraldHost } from '../host/heraldHost';
import { guessLanguage } from './guessLanguage';
import { originalUri } from './originalDocuments';
import { COPY_ORIGINAL_COMMAND, OPEN_ORIGINAL_AS_TEXT_COMMAND, originalHtml } from './originalHtml';

export const ORIGINAL_VIEW_TYPE = 'herald.original';

const panels = new Map<string, vscode.WebviewPanel>();

export async function showOriginal(host: HeraldHost, handle: string, original: string): Promise<void> {
  const open = panels.get(handle);
  if (open) {
    open.reveal();
    return;
  }
  const panel = vscode.window.createWebviewPanel(ORIGINAL_VIEW_TYPE, `Original ${handle}`, vscode.ViewColumn.Active, {
    enableScripts: false,
    // Only the two links of this page may run a command.
    enableCommandUris: [COPY_ORIGINAL_COMMAND, OPEN_ORIGINAL_AS_TEXT_COMMAND],
    localResourceRoots: [vscode.Uri.joinPath(host.context.extensionUri, 'media')],
  });
  panels.set(handle, panel);
  panel.onDidDispose(() => panels.delete(handle));
  const style = panel.webview.asWebviewUri(vscode.Uri.joinPath(host.context.extensionUri, 'media', 'sidebar.css'));
  panel.webview.html = originalHtml({ handle, original, language: guessLanguage(original), cspSource: panel.webview.cspSource, styleUri: style.toString() });
}

export function registerOriginalView(host: HeraldHost): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand(COPY_ORIGINAL_COMMAND, async (handle: unknown) => {
      const original = typeof handle === 'string' ? await host.stash.retrieve(handle) : undefined;
      if (original === undefined) return;
      await vscode.env.clipboard.writeText(original);
      void vscode.window.showInformationMessage(`Herald: the original of ${String(handle)} (${original.length.toLocaleString('en-US')} characters) is on the clipboard.`);
    }),
    vscode.commands.registerCommand(OPEN_ORIGINAL_AS_TEXT_COMMAND, async (handle: unknown) => {
      const original = typeof handle === 'string' ? await host.stash.retrieve(handle) : undefined;
      if (original === undefined) return;
      const document = await vscode.workspace.openTextDocument(originalUri(String(handle), original));
      await vscode.window.showTextDocument(document, { preview: true });
      void vscode.window.showWarningMessage('Herald: while this editor is active, VS Code attaches it to your next chat message. Close it before you chat if the model should not get the whole original.');
    }),
  ];
}

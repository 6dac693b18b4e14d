/**
 * A sidebar webview (decisions or library): strict CSP with a nonce script, resources only
 * from `dist/webview` and `media`, every message validated with zod in both directions.
 */
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import type { Logger } from '../../core/ports';
import { sidebarHtml } from './sidebarHtml';
import { parseWebviewMessage, type HostMessage, type WebviewMessage } from '../../webview/protocol';
import { describeError } from '../../core/errors';

export interface SidebarViewOptions {
  /** The view id in `package.json`. */
  readonly viewId: string;
  /** `dist/webview/<entry>.js`. */
  readonly entry: string;
  readonly title: string;
  /** The message that brings the view up to date. */
  readonly snapshot: () => HostMessage;
  readonly onMessage: (message: WebviewMessage) => void | Promise<void>;
}

export class SidebarView implements vscode.WebviewViewProvider {
  private view: vscode.WebviewView | undefined;

  constructor(private readonly extensionUri: vscode.Uri, private readonly options: SidebarViewOptions, private readonly logger: Logger) {}

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    const webview = view.webview;
    webview.options = { enableScripts: true, localResourceRoots: [vscode.Uri.joinPath(this.extensionUri, 'dist', 'webview'), vscode.Uri.joinPath(this.extensionUri, 'media')] };
    webview.html = this.html(webview);
    view.onDidDispose(() => {
      if (this.view === view) this.view = undefined;
    });
    view.onDidChangeVisibility(() => {
      if (view.visible) this.update();
    });
    webview.onDidReceiveMessage(async (value: unknown) => {
      const message = parseWebviewMessage(value);
      if (!message) {
        this.logger.warn('webview-message-invalid', `Herald: the ${this.options.viewId} view sent a message that does not match the protocol; it was dropped`);
        return;
      }
      if (message.type === 'ready') {
        this.update();
        return;
      }
      try {
        await this.options.onMessage(message);
      } catch (error) {
        this.logger.error('webview-action-failed', `Herald: ${message.type} failed: ${describeError(error)}`);
        void vscode.window.showErrorMessage(describeError(error));
      }
    });
  }

  /** Sends the current state when the view is open; a closed view catches up when it opens. */
  update(): void {
    if (!this.view?.visible) return;
    void this.view.webview.postMessage(this.options.snapshot());
  }

  private html(webview: vscode.Webview): string {
    const nonce = randomBytes(16).toString('base64');
    const script = webview.asWebviewUri(vscode.Uri.joinPath(this.extensionUri, 'dist', 'webview', `${this.options.entry}.js`));
    const style = webview.asWebviewUri(vscode.Uri.joinPath(this.extensionUri, 'media', 'sidebar.css'));
    return sidebarHtml({ nonce, cspSource: webview.cspSource, scriptUri: script.toString(), styleUri: style.toString(), title: this.options.title });
  }
}

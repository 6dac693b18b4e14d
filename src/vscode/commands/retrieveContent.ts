/**
 * "Herald: Retrieve Elided Content": pick a recent handle (with a preview of its original) or
 * paste one, and the original opens in a read-only editor named after the handle, in a guessed language.
 */
import * as vscode from 'vscode';
import { HANDLE_PATTERN, isHandle } from '../../core/stash/marker';
import type { HeraldHost } from '../host/heraldHost';
import { originalUri } from './originalDocuments';

export async function retrieveElidedContent(host: HeraldHost, handleArgument?: unknown): Promise<void> {
  let handle = typeof handleArgument === 'string' && isHandle(handleArgument) ? handleArgument : undefined;
  if (!handle) handle = await pickHandle(host);
  if (!handle) return;
  const original = await host.stash.retrieve(handle);
  if (original === undefined) {
    void vscode.window.showWarningMessage(`Herald: nothing is stored under ${handle}. It may have expired (herald.stash.ttlDays) or come from another machine.`);
    return;
  }
  const document = await vscode.workspace.openTextDocument(originalUri(handle, original));
  await vscode.window.showTextDocument(document, { preview: false });
  host.logger.info('original-opened', `Herald: opened the original of ${handle} (${original.length} characters)`);
}

async function pickHandle(host: HeraldHost): Promise<string | undefined> {
  type Item = vscode.QuickPickItem & { handle?: string };
  const recent = host.log.recentHandles();
  const items: Item[] = [];
  for (const entry of recent) {
    const original = await host.stash.retrieve(entry.handle);
    const firstLine = original?.split('\n').find((line) => line.trim().length > 0)?.trim().slice(0, 120) ?? '(expired)';
    items.push({ label: entry.handle, description: `${entry.strategy} · ${new Date(entry.startedAt).toLocaleTimeString()}`, detail: firstLine, handle: entry.handle });
  }
  items.push({ label: '$(clippy) Paste a handle…', description: 'hr_ followed by 16 letters and digits, as shown in a marker' });
  const picked = await vscode.window.showQuickPick(items, { title: 'Herald: Retrieve Elided Content', placeHolder: recent.length > 0 ? 'Pick an elided original to open, or paste a handle' : 'No elisions this session yet: paste a handle from a marker', matchOnDetail: true });
  if (!picked) return undefined;
  if (picked.handle) return picked.handle;
  const typed = await vscode.window.showInputBox({
    title: 'Herald: handle to retrieve',
    prompt: 'Paste a handle or a whole marker such as [herald: 412 lines elided · retrieve hr_k2p4q7m3x9a5b6c1]',
    validateInput: (value) => (HANDLE_PATTERN.test(value) ? undefined : 'No handle found: it starts with hr_ and has 16 more letters and digits'),
  });
  return typed ? HANDLE_PATTERN.exec(typed)?.[0] : undefined;
}

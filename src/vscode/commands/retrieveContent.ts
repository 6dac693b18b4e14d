/**
 * "Herald: Retrieve Elided Content": pick a recent handle (with a preview of its original), or
 * paste a handle or a whole marker into the same box, and the original opens in Herald's
 * read-only view (see originalView.ts for why not a text editor).
 */
import * as vscode from 'vscode';
import { isHandle } from '../../core/stash/marker';
import { handleInText } from './retrieveContentText';
import type { HeraldHost } from '../host/heraldHost';
import { showOriginal } from './originalView';

export async function retrieveElidedContent(host: HeraldHost, handleArgument?: unknown): Promise<void> {
  let handle = typeof handleArgument === 'string' && isHandle(handleArgument) ? handleArgument : undefined;
  if (!handle) handle = await pickHandle(host);
  if (!handle) return;
  const original = await host.stash.retrieve(handle);
  if (original === undefined) {
    void vscode.window.showWarningMessage(`Herald: nothing is stored under ${handle}. It may have expired (herald.stash.ttlDays) or come from another machine.`);
    return;
  }
  await showOriginal(host, handle, original);
  host.logger.info('original-opened', `Herald: opened the original of ${handle} (${original.length} characters)`);
}

type Item = vscode.QuickPickItem & { handle?: string };

async function pickHandle(host: HeraldHost): Promise<string | undefined> {
  const recent = host.log.recentHandles();
  const items: Item[] = [];
  for (const entry of recent) {
    const original = await host.stash.retrieve(entry.handle);
    const firstLine = original?.split('\n').find((line) => line.trim().length > 0)?.trim().slice(0, 120) ?? '(expired)';
    items.push({ label: entry.handle, description: `${entry.strategy} · ${new Date(entry.startedAt).toLocaleTimeString()}`, detail: firstLine, handle: entry.handle });
  }
  const pick = vscode.window.createQuickPick<Item>();
  pick.title = 'Herald: Retrieve Elided Content';
  pick.placeholder = recent.length > 0 ? 'Pick an elided original, or paste a handle or a whole marker' : 'No elisions yet: paste a handle (hr_…) or a whole marker such as [herald: … · retrieve hr_…]';
  pick.matchOnDetail = true;
  pick.items = items;
  // A pasted marker matches no row's label: offer the handle it holds as a row that always shows.
  pick.onDidChangeValue((value) => {
    const pasted = handleInText(value);
    // A bare handle of a listed row matches that row by itself; anything else gets a row of its own.
    const matchesRow = pasted !== undefined && value.trim() === pasted && items.some((item) => item.handle === pasted);
    pick.items = pasted && !matchesRow ? [{ label: `$(go-to-file) Open ${pasted}`, description: 'from what you pasted', alwaysShow: true, handle: pasted }, ...items] : items;
  });
  return new Promise<string | undefined>((resolve) => {
    let settled = false;
    const finish = (value: string | undefined): void => {
      if (settled) return;
      settled = true;
      resolve(value);
      pick.dispose();
    };
    pick.onDidAccept(() => finish(pick.selectedItems[0]?.handle ?? pick.activeItems[0]?.handle ?? handleInText(pick.value)));
    pick.onDidHide(() => finish(undefined));
    pick.show();
  });
}

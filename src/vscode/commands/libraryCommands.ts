/** "New Library Page" and "Reindex Library". */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { HeraldHost } from '../host/heraldHost';

export async function newLibraryPage(host: HeraldHost): Promise<void> {
  const root = host.library.root();
  if (!root) {
    void vscode.window.showWarningMessage('Herald: open a folder first; the library lives in it (herald.library.folder).');
    return;
  }
  const title = await vscode.window.showInputBox({ title: 'Herald: New Library Page', prompt: 'The page title, e.g. "Refund policy"', validateInput: (value) => (value.trim() ? undefined : 'Give the page a title') });
  if (!title) return;
  const type = await vscode.window.showQuickPick(['reference', 'rule', 'process', 'template', 'style'], { title: 'Herald: page type', placeHolder: 'rule, process, template and style pages are always sent whole' });
  if (!type) return;
  const slug = title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'page';
  let file = path.join(root, `${slug}.md`);
  for (let counter = 2; fs.existsSync(file); counter++) file = path.join(root, `${slug}-${counter}.md`);
  fs.mkdirSync(root, { recursive: true });
  const content = `---\ntitle: ${JSON.stringify(title.trim())}\ntype: ${type}\nstatus: draft\ntags: []\ngood_for: []\n---\n\n# ${title.trim()}\n\nWrite what an agent should know here. Set status to published when it is ready.\n`;
  fs.writeFileSync(file, content, 'utf8');
  host.library.reload(`page "${title.trim()}" created`);
  await vscode.window.showTextDocument(vscode.Uri.file(file));
}

export function reindexLibrary(host: HeraldHost): void {
  const library = host.library.reload('reindexed');
  const view = host.library.view();
  if (library) void vscode.window.showInformationMessage(`Herald: library reindexed: ${library.pages.length} pages${library.problems.length > 0 ? `, ${library.problems.length} problems (see the Library view)` : ''}.`);
  else void vscode.window.showWarningMessage(`Herald: ${view.message ?? 'no library found'}`);
}

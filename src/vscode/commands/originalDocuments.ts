/**
 * Elided originals as read-only documents: `herald:/hr_….<ext>`. The tab shows the handle,
 * the extension gives the language, and closing it never asks to save.
 */
import * as vscode from 'vscode';
import { HANDLE_PATTERN } from '../../core/stash/marker';
import type { HeraldHost } from '../host/heraldHost';
import { guessLanguage } from './guessLanguage';

export const ORIGINAL_SCHEME = 'herald';

const EXTENSION_OF: Record<string, string> = { json: 'json', diff: 'diff', html: 'html', xml: 'xml', python: 'py', plaintext: 'txt' };

export function registerOriginalDocuments(host: HeraldHost): vscode.Disposable[] {
  return [
    vscode.workspace.registerTextDocumentContentProvider(ORIGINAL_SCHEME, {
      async provideTextDocumentContent(uri) {
        const handle = HANDLE_PATTERN.exec(uri.path)?.[0];
        const original = handle ? await host.stash.retrieve(handle) : undefined;
        return original ?? `Herald: nothing is stored under ${handle ?? uri.path}. It may have expired (herald.stash.ttlDays).`;
      },
    }),
  ];
}

/** The document URI of an original, named after its handle with an extension for its language. */
export function originalUri(handle: string, original: string): vscode.Uri {
  return vscode.Uri.from({ scheme: ORIGINAL_SCHEME, path: `/${handle}.${EXTENSION_OF[guessLanguage(original)] ?? 'txt'}` });
}

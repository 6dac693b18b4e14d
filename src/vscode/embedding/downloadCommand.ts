/**
 * "Herald: Download Embedding Model": asks first, downloads the pinned model into the
 * extension's global storage with a cancellable progress notification, then points
 * `herald.embedding.modelFolder` at it so the relevance scorers start using it.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { HeraldHost } from '../host/heraldHost';
import { ALL_MINILM_L6_V2, DownloadCancelledError, downloadModel, type DownloadFetch } from './modelDownload';

const MEGABYTE = 1024 * 1024;

/** Node's fetch: its body is an async iterable of bytes in the extension host. */
const hostFetch: DownloadFetch = async (url, init) => {
  const response = await fetch(url, { signal: init.signal, redirect: 'follow' });
  return { ok: response.ok, status: response.status, statusText: response.statusText, body: response.body as unknown as AsyncIterable<Uint8Array> | null };
};

export async function downloadEmbeddingModel(host: HeraldHost): Promise<void> {
  const model = ALL_MINILM_L6_V2;
  const totalMegabytes = Math.round(model.files.reduce((sum, file) => sum + file.bytes, 0) / MEGABYTE);
  const choice = await vscode.window.showInformationMessage(
    `Herald: download the ${model.name} embedding model (${totalMegabytes} MB, from Hugging Face at a pinned revision, checked against pinned SHA-256 sums)? It is stored in Herald's global storage and makes relevance scoring semantic.`,
    { modal: true },
    'Download',
  );
  if (choice !== 'Download') return;
  const destination = path.join(host.context.globalStorageUri.fsPath, 'models', model.name);
  try {
    await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Herald: downloading ${model.name}`, cancellable: true }, async (progress, token) => {
      const abort = new AbortController();
      const subscription = token.onCancellationRequested(() => abort.abort());
      let shownPercent = 0;
      try {
        await downloadModel(model, destination, {
          fetch: hostFetch,
          signal: abort.signal,
          onProgress: (step) => {
            const percent = Math.floor((step.receivedBytes * 100) / step.totalBytes);
            if (percent <= shownPercent) return;
            progress.report({ increment: percent - shownPercent, message: `${step.file}: ${(step.receivedBytes / MEGABYTE).toFixed(1)} of ${(step.totalBytes / MEGABYTE).toFixed(1)} MB` });
            shownPercent = percent;
          },
        });
      } finally {
        subscription.dispose();
      }
    });
  } catch (error) {
    if (error instanceof DownloadCancelledError) {
      void vscode.window.showInformationMessage(error.message);
      return;
    }
    throw error;
  }
  await vscode.workspace.getConfiguration('herald').update('embedding.modelFolder', destination, vscode.ConfigurationTarget.Global);
  host.reloadSettings();
  host.logger.info('embedding-model-downloaded', `Herald: ${model.name} downloaded and verified in ${destination}`);
  void vscode.window.showInformationMessage(`Herald: ${model.name} is installed and in use (herald.embedding.modelFolder).`);
}

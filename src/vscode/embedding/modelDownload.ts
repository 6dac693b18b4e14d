/**
 * Downloads a pinned embedding model into a folder Herald loads, on the user's request only.
 *
 * Every file is streamed into a staging folder beside the destination while its SHA-256 is
 * computed; a file whose checksum differs from the pinned one stops the download with an error
 * naming it. The manifest (`herald-model.json`) is written last, the folder is checked again
 * with {@link verifyChecksums}, and only then renamed into place. A failed or cancelled
 * download removes the staging folder, so nothing half-written is ever left where Herald looks.
 *
 * Pure Node (no `vscode`): the command supplies the destination, progress and cancellation.
 */
import { createHash, randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { MODEL_MANIFEST_FILE, MODEL_MANIFEST_SCHEMA_VERSION, verifyChecksums, type ModelManifest } from '../../core/relevance/embedding/modelFolder';
import { describeError } from '../../core/errors';

/** One file of a pinned model. */
export interface PinnedFile {
  /** Where it is published (a URL at a fixed revision). */
  readonly url: string;
  /** Its name inside the model folder. */
  readonly name: string;
  /** Lower-case hex SHA-256 of its bytes. */
  readonly sha256: string;
  /** Its size in bytes, for the progress bar. */
  readonly bytes: number;
}

/** A model Herald knows how to download. */
export interface PinnedModel {
  /** Written into the manifest; also the folder name under the extension's storage. */
  readonly name: string;
  readonly dimension: number;
  readonly maxTokens: number;
  readonly pooling: 'mean' | 'cls';
  readonly files: readonly PinnedFile[];
}

const MINILM_REVISION = '1110a243fdf4706b3f48f1d95db1a4f5529b4d41';
const MINILM_BASE = `https://huggingface.co/sentence-transformers/all-MiniLM-L6-v2/resolve/${MINILM_REVISION}`;

/**
 * sentence-transformers/all-MiniLM-L6-v2, its ONNX export and tokenizer at a fixed revision.
 * The checksums are the Git LFS SHA-256 values of those files as published, each found in
 * several independent projects that pin the same revision; the download refuses any other bytes.
 */
export const ALL_MINILM_L6_V2: PinnedModel = {
  name: 'all-MiniLM-L6-v2',
  dimension: 384,
  maxTokens: 256,
  pooling: 'mean',
  files: [
    { url: `${MINILM_BASE}/onnx/model.onnx`, name: 'model.onnx', sha256: '6fd5d72fe4589f189f8ebc006442dbb529bb7ce38f8082112682524616046452', bytes: 90_405_214 },
    { url: `${MINILM_BASE}/tokenizer.json`, name: 'tokenizer.json', sha256: 'be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037', bytes: 466_247 },
  ],
};

/** The part of `fetch` the download uses, injectable for tests. */
export type DownloadFetch = (url: string, init: { signal: AbortSignal }) => Promise<{
  readonly ok: boolean;
  readonly status: number;
  readonly statusText: string;
  readonly body: AsyncIterable<Uint8Array> | null;
}>;

/** Where the download is: bytes so far of the whole model, and the file being fetched. */
export interface DownloadProgress {
  readonly receivedBytes: number;
  readonly totalBytes: number;
  readonly file: string;
}

export interface DownloadOptions {
  readonly fetch: DownloadFetch;
  readonly signal: AbortSignal;
  readonly onProgress?: (progress: DownloadProgress) => void;
}

/** Thrown when the user cancelled; the caller says nothing more than "cancelled". */
export class DownloadCancelledError extends Error {
  constructor() {
    super('Herald: the embedding model download was cancelled; nothing was kept');
    this.name = 'DownloadCancelledError';
  }
}

/**
 * Downloads `model` into `destination` (replacing a folder already there only once the new one
 * is complete and verified). Returns the destination.
 */
export async function downloadModel(model: PinnedModel, destination: string, options: DownloadOptions): Promise<string> {
  const parent = path.dirname(destination);
  fs.mkdirSync(parent, { recursive: true });
  const staging = path.join(parent, `.${path.basename(destination)}.partial-${randomBytes(4).toString('hex')}`);
  fs.mkdirSync(staging);
  const totalBytes = model.files.reduce((sum, file) => sum + file.bytes, 0);
  let receivedBytes = 0;
  try {
    for (const file of model.files) {
      const before = receivedBytes;
      const bytes = await downloadFile(file, path.join(staging, file.name), options, (sofar) => options.onProgress?.({ receivedBytes: before + sofar, totalBytes, file: file.name }));
      receivedBytes = before + bytes;
    }
    const manifest: ModelManifest = {
      schema: MODEL_MANIFEST_SCHEMA_VERSION,
      name: model.name,
      dimension: model.dimension,
      maxTokens: model.maxTokens,
      pooling: model.pooling,
      files: Object.fromEntries(model.files.map((file) => [file.name, file.sha256])),
    };
    fs.writeFileSync(path.join(staging, MODEL_MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
    // The same check Herald runs before loading: what is moved into place is what will load.
    verifyChecksums(staging, manifest.files);
    if (options.signal.aborted) throw new DownloadCancelledError();
    replaceFolder(staging, destination);
    return destination;
  } catch (error) {
    fs.rmSync(staging, { recursive: true, force: true });
    if (options.signal.aborted) throw new DownloadCancelledError();
    throw error;
  }
}

/** Streams one file to disk while hashing it; returns its size. */
async function downloadFile(file: PinnedFile, target: string, options: DownloadOptions, progress: (bytes: number) => void): Promise<number> {
  if (options.signal.aborted) throw new DownloadCancelledError();
  let response: Awaited<ReturnType<DownloadFetch>>;
  try {
    response = await options.fetch(file.url, { signal: options.signal });
  } catch (error) {
    if (options.signal.aborted) throw new DownloadCancelledError();
    throw new Error(`Herald: could not download ${file.name} from ${file.url}: ${describeError(error)}; check the network or proxy and try again`);
  }
  if (!response.ok || !response.body) throw new Error(`Herald: downloading ${file.name} from ${file.url} failed: ${response.status} ${response.statusText}`);
  const hash = createHash('sha256');
  const handle = fs.openSync(target, 'w');
  let bytes = 0;
  try {
    for await (const chunk of response.body) {
      if (options.signal.aborted) throw new DownloadCancelledError();
      hash.update(chunk);
      fs.writeSync(handle, chunk);
      bytes += chunk.byteLength;
      progress(bytes);
    }
  } finally {
    fs.closeSync(handle);
  }
  if (options.signal.aborted) throw new DownloadCancelledError();
  const actual = hash.digest('hex');
  if (actual !== file.sha256) {
    throw new Error(`Herald: ${file.name} from ${file.url} does not match its pinned checksum (SHA-256 ${actual}, expected ${file.sha256}); nothing was installed. The file may have changed upstream or been altered in transit.`);
  }
  return bytes;
}

/** Moves the verified folder into place; an older copy is removed only after the move. */
function replaceFolder(staging: string, destination: string): void {
  if (!fs.existsSync(destination)) {
    fs.renameSync(staging, destination);
    return;
  }
  const previous = `${destination}.previous-${randomBytes(4).toString('hex')}`;
  fs.renameSync(destination, previous);
  try {
    fs.renameSync(staging, destination);
  } catch (error) {
    fs.renameSync(previous, destination);
    throw error;
  }
  fs.rmSync(previous, { recursive: true, force: true });
}

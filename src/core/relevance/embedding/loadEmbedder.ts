/**
 * Loads whichever kind of model a folder holds: Herald's static model (the one the VSIX ships,
 * or a user's retrained copy) or an ONNX sentence-embedding model, both behind the one
 * Embedder interface. The folder's manifest and checksums are checked first (modelFolder.ts).
 *
 * A static model is loaded once per process: every strategy, the filter and the library
 * share one embedder (and its cache of term vectors), so a new pipeline does not read, hash
 * and decode 5 MB again. The loaded model is reused while its files are unchanged (same size,
 * modification time and inode); a changed file is checked and read again.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Embedder } from '../types';
import { MODEL_MANIFEST_FILE, resolveModelFolder, STATIC_MODEL_FILE_NAME } from './modelFolder';
import { loadOnnxEmbedder, type OnnxEmbedderOptions } from './onnxEmbedder';
import { createStaticEmbedder, readStaticModel } from './staticModel';

const loadedStatic = new Map<string, { stamp: string; embedder: Embedder }>();

export async function loadEmbedder(modelDir: string, options: OnnxEmbedderOptions = {}): Promise<Embedder> {
  const key = `${path.resolve(modelDir)}\u0000${options.cacheEntries ?? ''}`;
  const stamp = filesStamp(modelDir);
  const loaded = loadedStatic.get(key);
  if (loaded && stamp !== undefined && loaded.stamp === stamp) return loaded.embedder;
  const folder = resolveModelFolder(modelDir);
  if (folder.kind === 'static') {
    const model = readStaticModel(folder.modelFile);
    if (folder.manifest.dimension !== undefined && folder.manifest.dimension !== model.header.dimension) {
      throw new Error(`Herald: the embedding model ${folder.modelFile} has ${model.header.dimension} dimensions, its manifest says ${folder.manifest.dimension}`);
    }
    const embedder = createStaticEmbedder(folder.name, model, options.cacheEntries);
    // The stamp taken before the checks: a file replaced while they ran is checked again next time.
    if (stamp !== undefined) loadedStatic.set(key, { stamp, embedder });
    return embedder;
  }
  return loadOnnxEmbedder(modelDir, options);
}

/** Size, modification time and inode of a static model's two files; undefined when either is missing. */
function filesStamp(modelDir: string): string | undefined {
  try {
    return [MODEL_MANIFEST_FILE, STATIC_MODEL_FILE_NAME].map((name) => {
      const stat = fs.statSync(path.join(modelDir, name), { bigint: true });
      return `${stat.size}:${stat.mtimeNs}:${stat.ino}`;
    }).join('|');
  } catch {
    return undefined;
  }
}

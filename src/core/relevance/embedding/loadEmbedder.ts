/**
 * Loads whichever kind of model a folder holds: Herald's static model (the one the VSIX ships,
 * or a user's retrained copy) or an ONNX sentence-embedding model, both behind the one
 * Embedder interface. The folder's manifest and checksums are checked first (modelFolder.ts).
 */
import type { Embedder } from '../types';
import { resolveModelFolder } from './modelFolder';
import { loadOnnxEmbedder, type OnnxEmbedderOptions } from './onnxEmbedder';
import { createStaticEmbedder, readStaticModel } from './staticModel';

export async function loadEmbedder(modelDir: string, options: OnnxEmbedderOptions = {}): Promise<Embedder> {
  const folder = resolveModelFolder(modelDir);
  if (folder.kind === 'static') {
    const model = readStaticModel(folder.modelFile);
    if (folder.manifest.dimension !== undefined && folder.manifest.dimension !== model.header.dimension) {
      throw new Error(`Herald: the embedding model ${folder.modelFile} has ${model.header.dimension} dimensions, its manifest says ${folder.manifest.dimension}`);
    }
    return createStaticEmbedder(folder.name, model, options.cacheEntries);
  }
  return loadOnnxEmbedder(modelDir, options);
}

import type { ResponseCacheStore } from './responseCache/responseCache';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { RUNTIME_FILE } from '../code/grammarLoader';
import type { AssetLocator, Logger } from '../ports';
import { bundledOcrFiles } from './ocr/ocrAssets';
import type { TesseractEngineOptions } from './ocr/ocrEngine';

/** What strategy factories may need from the host beyond the per-request context. */
export interface StrategyEnvironment {
  /** Where bundled .wasm files are (tree-sitter grammars, onnxruntime). */
  readonly assets?: AssetLocator;
  readonly logger?: Logger;
  /** A local embedding model folder, when the user configured one. */
  readonly embeddingModelDir?: string;
  /** The shipped retrieval model's folder; default: found beside the running code; `false`: none (lexical unless a user model is set). */
  readonly bundledModelDir?: string | false;
  /**
   * Where vision_ocr's engine finds its worker, core and model, and how long the worker idles
   * before it stops. Files not given come from beside the running bundle, else node_modules.
   */
  readonly ocr?: TesseractEngineOptions;
  /** Where semantic_cache keeps answers (a store shared by several processes); default: in this process's memory. */
  readonly responseCache?: ResponseCacheStore;
}

/**
 * The part of the environment a build's folder provides (`dist/`, where `esbuild.mjs` puts the
 * wasm files, the OCR worker and the OCR model beside the bundles): what the extension host
 * and the CLI pass for their own `dist/`. Empty when the folder holds no build (running from
 * source), so the defaults (node_modules) apply.
 */
export function bundledEnvironment(folder: string): Pick<StrategyEnvironment, 'assets' | 'ocr'> {
  const assets: AssetLocator | undefined = fs.existsSync(path.join(folder, RUNTIME_FILE)) ? { wasmPath: (fileName) => path.join(folder, fileName) } : undefined;
  const ocr = bundledOcrFiles(folder);
  return { ...(assets ? { assets } : {}), ...(ocr ? { ocr } : {}) };
}

/**
 * The OCR files a build puts beside its bundles (see `esbuild.mjs`), so vision_ocr runs from
 * the VSIX and from `dist/cli.js` where no node_modules exists: tesseract.js's node worker
 * bundled as one script, the Tesseract cores it may pick, and the English model.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

/** tesseract.js's node worker script, bundled with the core's JavaScript. */
export const OCR_WORKER_FILE = 'ocr-worker.js';

/** The English LSTM model (tessdata "best", integer), gzipped as `@tesseract.js-data/eng` ships it. */
export const OCR_MODEL_FILE = 'eng.traineddata.gz';

/**
 * The Tesseract core the bundled worker loads: the SIMD build with both engines (in Node
 * tesseract.js always takes a full core, whatever engine mode is asked for). The build points
 * the worker's relaxed-SIMD choice at it too, whose results may differ between processors;
 * see `esbuild.mjs`.
 */
export const OCR_CORE_FILES = ['tesseract-core-simd.wasm'] as const;

/** Where the OCR engine finds its files; each one defaults to the installed npm packages. */
export interface OcrFiles {
  /** tesseract.js's node worker script. */
  readonly workerPath: string;
  /**
   * Folder of the Tesseract core. In Node the worker loads the core's `.wasm` from its own
   * folder, so this is informational there; a browser worker would use it.
   */
  readonly corePath: string;
  /** Folder holding `eng.traineddata.gz`. */
  readonly langPath: string;
}

/** The OCR files a build put in `folder`, or undefined when it holds none (running from source). */
export function bundledOcrFiles(folder: string): OcrFiles | undefined {
  const workerPath = path.join(folder, OCR_WORKER_FILE);
  if (!fs.existsSync(workerPath) || !fs.existsSync(path.join(folder, OCR_MODEL_FILE))) return undefined;
  return { workerPath, corePath: folder, langPath: folder };
}

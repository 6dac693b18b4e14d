/**
 * The OCR engine vision_ocr reads screenshots with: Tesseract compiled to WebAssembly
 * (tesseract.js and tesseract.js-core) with the English model from the separately published
 * `@tesseract.js-data/eng` package. Everything it loads ships inside those npm packages, or,
 * in a built bundle, beside it (`ocrAssets.ts`); nothing is downloaded at run time (the model
 * is read from its folder and never cached elsewhere).
 *
 * One worker thread is started on first use and reused; it is stopped after a quiet spell so
 * a command-line run can exit, or by `dispose()`.
 */
import * as path from 'node:path';
import { bundledOcrFiles, type OcrFiles } from './ocrAssets';

export interface OcrBox {
  readonly x0: number;
  readonly y0: number;
  readonly x1: number;
  readonly y1: number;
}

export interface OcrWord {
  readonly text: string;
  /** 0–100. */
  readonly confidence: number;
  readonly box: OcrBox;
}

export interface OcrReading {
  /** The text, line by line, as the engine laid it out. */
  readonly text: string;
  /** Mean word confidence, 0–100. */
  readonly confidence: number;
  readonly words: readonly OcrWord[];
}

/** What vision_ocr needs from an OCR engine; tests and hosts may inject their own. */
export interface OcrEngine {
  /** Reads an encoded image (PNG, JPEG, …). */
  read(image: Uint8Array): Promise<OcrReading>;
  /** Stops any background worker. */
  dispose?(): Promise<void>;
}

/**
 * Where the engine's files are and how long its worker lives. A file not given is taken from
 * beside the running bundle when a build put it there (`ocrAssets.ts`), else from node_modules.
 */
export interface TesseractEngineOptions extends Partial<OcrFiles> {
  /** Stop the worker after this long without a request (ms). Default 10000. */
  readonly idleMs?: number;
}

/** The model variant for the LSTM engine: tessdata "best" as integers, 8 MB smaller and faster than "4.0.0", as accurate. */
const MODEL_FOLDER = '4.0.0_best_int';

interface TesseractWorker {
  recognize(image: Buffer, options: object, output: object): Promise<{ data: TesseractPage }>;
  terminate(): Promise<unknown>;
}

interface TesseractPage {
  readonly text: string;
  readonly confidence: number;
  readonly blocks: readonly { paragraphs: readonly { lines: readonly { words: readonly { text: string; confidence: number; bbox: OcrBox }[] }[] }[] }[] | null;
}

interface TesseractModule {
  createWorker(langs: string, oem: number, options: Record<string, unknown>): Promise<TesseractWorker>;
}

export class TesseractOcrEngine implements OcrEngine {
  private worker: Promise<TesseractWorker> | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: TesseractEngineOptions = {}) {}

  read(image: Uint8Array): Promise<OcrReading> {
    // One job at a time: the worker runs them in order anyway, and the idle timer must see the last one end.
    const job = this.queue.then(() => this.recognize(image));
    this.queue = job.catch(() => undefined);
    return job;
  }

  async dispose(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const worker = this.worker;
    this.worker = undefined;
    if (worker) await (await worker.catch(() => undefined))?.terminate();
  }

  private async recognize(image: Uint8Array): Promise<OcrReading> {
    if (this.timer) clearTimeout(this.timer);
    this.worker ??= this.start();
    let page: TesseractPage;
    try {
      page = (await (await this.worker).recognize(Buffer.from(image), {}, { text: true, blocks: true })).data;
    } finally {
      this.timer = setTimeout(() => void this.dispose(), this.options.idleMs ?? 10_000);
      this.timer.unref?.();
    }
    const words: OcrWord[] = [];
    for (const block of page.blocks ?? []) for (const paragraph of block.paragraphs) for (const line of paragraph.lines) for (const word of line.words) {
      words.push({ text: word.text, confidence: word.confidence, box: word.bbox });
    }
    const confidence = words.length === 0 ? 0 : words.reduce((sum, word) => sum + word.confidence, 0) / words.length;
    return { text: page.text, confidence, words };
  }

  private async start(): Promise<TesseractWorker> {
    const tesseract = (await import('tesseract.js')) as unknown as TesseractModule & { default?: TesseractModule };
    const createWorker = tesseract.createWorker ?? tesseract.default?.createWorker;
    const files: Partial<OcrFiles> = { ...bundledOcrFiles(typeof __dirname === 'string' ? __dirname : process.cwd()), ...definedFiles(this.options) };
    const langPath = files.langPath ?? (await packagedModelFolder());
    if (!langPath) throw new Error('Herald: the English OCR model (@tesseract.js-data/eng) was not found');
    // cacheMethod "none": read the model from its folder every start, never write or fetch a copy.
    const paths: Record<string, string> = {};
    if (files.workerPath) paths.workerPath = files.workerPath;
    if (files.corePath) paths.corePath = files.corePath;
    // OEM 1: the LSTM engine alone, which is what the "best" model holds.
    // errorHandler: without one, tesseract.js rethrows a failed job inside its message listener,
    // an uncaught error that ends the whole process; the job's promise is rejected either way.
    return createWorker('eng', 1, { langPath, gzip: true, cacheMethod: 'none', errorHandler: ignoreWorkerError, ...paths });
  }
}

/** The file paths given, without undefined ones, so they do not hide the defaults. */
function definedFiles(options: TesseractEngineOptions): Partial<OcrFiles> {
  const files: { -readonly [Key in keyof OcrFiles]?: string } = {};
  if (options.workerPath) files.workerPath = options.workerPath;
  if (options.corePath) files.corePath = options.corePath;
  if (options.langPath) files.langPath = options.langPath;
  return files;
}

/** The LSTM model's folder inside `@tesseract.js-data/eng` (the package points at its "4.0.0" sibling). */
async function packagedModelFolder(): Promise<string | undefined> {
  const model = (await import('@tesseract.js-data/eng')) as { langPath?: string; default?: { langPath?: string } };
  const langPath = model.langPath ?? model.default?.langPath;
  return langPath === undefined ? undefined : path.join(path.dirname(langPath), MODEL_FOLDER);
}

/** The failure reaches the caller through the rejected job; nothing more to do with it here. */
function ignoreWorkerError(): void {}

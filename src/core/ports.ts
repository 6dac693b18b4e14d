/**
 * What a host provides to the core: a logger, a clock, a language model, where the .wasm
 * files are. The extension, the CLI, the benchmarks and the tests each supply their own.
 */

/** Non-fatal problems carry a machine-readable code, e.g. `stash-write-failed`. */
export interface Logger {
  info(code: string, message: string): void;
  warn(code: string, message: string): void;
  error(code: string, message: string): void;
}

export const silentLogger: Logger = { info() {}, warn() {}, error() {} };

/** A logger that keeps what it was told, for tests and for the CLI's report. */
export class RecordingLogger implements Logger {
  readonly lines: { level: 'info' | 'warn' | 'error'; code: string; message: string }[] = [];
  info(code: string, message: string): void { this.lines.push({ level: 'info', code, message }); }
  warn(code: string, message: string): void { this.lines.push({ level: 'warn', code, message }); }
  error(code: string, message: string): void { this.lines.push({ level: 'error', code, message }); }
}

export interface ModelCompletionRequest {
  /** Instructions for the model. */
  readonly system?: string;
  /** The question. */
  readonly prompt: string;
  readonly maxTokens?: number;
  readonly signal?: AbortSignal;
}

/** A language model the host can reach (VS Code's selected model, a configured endpoint, a fake in tests). */
export interface ModelPort {
  /** A short name for reports, e.g. `copilot/gpt-4o`. */
  readonly name: string;
  complete(request: ModelCompletionRequest): Promise<string>;
}

/** Where bundled binary assets are found (the extension's `dist/`, or node_modules in tests). */
export interface AssetLocator {
  /** Absolute path of a bundled asset such as `tree-sitter-python.wasm`. */
  wasmPath(fileName: string): string;
}

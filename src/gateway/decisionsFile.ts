/**
 * The gateway's decisions as JSON lines: one request's record a line, metadata only (sizes,
 * actions, reasons, handles; no prompt text, no header), appended in order without blocking
 * the request that produced it.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { GatewayRecord } from './gatewayServer';

/** Schema of each line; a reader of another version must refuse the file. */
export const GATEWAY_DECISIONS_SCHEMA_VERSION = 1;

export class DecisionsFile {
  private writing: Promise<void> = Promise.resolve();

  constructor(private readonly file: string, private readonly onProblem: (message: string) => void) {
    fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    // An existing file is made the owner's only, as a new one is created.
    if (fs.existsSync(file)) fs.chmodSync(file, 0o600);
  }

  append(record: GatewayRecord): void {
    const line = JSON.stringify({ schema: GATEWAY_DECISIONS_SCHEMA_VERSION, ...record }) + '\n';
    this.writing = this.writing.then(() => fs.promises.appendFile(this.file, line, { mode: 0o600 })).catch((error: unknown) => {
      this.onProblem(`Herald: the decisions file ${this.file} could not be written (${error instanceof Error ? error.message : String(error)})`);
    });
  }

  /** Resolves when every line so far is written. */
  flush(): Promise<void> {
    return this.writing;
  }
}

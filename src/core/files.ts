import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * Writes a file through a temporary file beside it and a rename, so a crash never leaves a
 * partial file under the real name. Creates the folder; `mode` defaults to user-only (0600).
 */
export function writeFileAtomic(file: string, data: string | Uint8Array, mode = 0o600): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, data, { mode });
  fs.renameSync(temporary, file);
}

import { randomBytes } from 'node:crypto';
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

/** A 32-byte key kept in `file` (owner-only): read when it is there and whole, else made and written. */
export function readOrCreateKeyFile(file: string): Uint8Array {
  try {
    const key = fs.readFileSync(file);
    if (key.length === 32) return key;
  } catch (error) {
    if ((error as { code?: string }).code !== 'ENOENT') throw error;
  }
  const key = randomBytes(32);
  writeFileAtomic(file, key);
  return key;
}

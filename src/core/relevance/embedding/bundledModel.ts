/**
 * Where the retrieval model Herald ships is: `media/model/herald-retrieval/` in the extension
 * (the VSIX carries media/), found from the running bundle (`dist/`, one level down) or, when
 * running from source, from the nearest folder above this module that has it.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { MODEL_MANIFEST_FILE } from './modelFolder';

/** The shipped model's name (its manifest's `name`; the embedder's name starts with it). */
export const SHIPPED_MODEL_NAME = 'herald-retrieval';

/** The shipped model's folder, relative to the extension's (and the repository's) root. */
export const BUNDLED_MODEL_PATH = path.join('media', 'model', 'herald-retrieval');

/** The shipped model's folder, or undefined when this install has none (a copy of dist/ alone). */
export function bundledModelFolder(here: string = typeof __dirname === 'string' ? __dirname : process.cwd()): string | undefined {
  let current = here;
  for (;;) {
    const candidate = path.join(current, BUNDLED_MODEL_PATH);
    if (fs.existsSync(path.join(candidate, MODEL_MANIFEST_FILE))) return candidate;
    const parent = path.dirname(current);
    if (parent === current) return undefined;
    current = parent;
  }
}

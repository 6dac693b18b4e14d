/**
 * The CLI's stash folder: entries as files (`entries/`), the per-install HMAC key, the memo
 * and pins that keep consecutive `herald optimize` calls of one conversation cache-stable (one
 * file per entry in `state/`, shared by every process on the folder: `herald serve`'s workers
 * too), and where each optimized text's real elisions stand (for `herald expand`).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { MessageMemo, SessionStateStore } from '../core/pipeline';
import { readOrCreateKeyFile, writeFileAtomic } from '../core/files';
import { FileBlobStore, Stash } from '../core/stash';
import { FolderStateStore } from '../core/store/folderStateStore';
import type { StateStore } from '../core/store/stateStore';
import type { Logger } from '../core/ports';
import { SiteIndex } from './siteIndex';
import { describeError } from '../core/errors';

export function defaultStashDirectory(): string {
  return process.env.HERALD_STASH_DIR ?? path.join(os.homedir(), '.herald', 'stash');
}

export interface StashDirectory {
  readonly directory: string;
  readonly stash: Stash;
  /** The per-install key handles and tenants are derived from. */
  readonly key: Uint8Array;
  /** The memo's and pins' store (`state/`). */
  readonly store: StateStore;
  readonly memo: MessageMemo;
  readonly state: SessionStateStore;
  /** Where the real elisions of the texts `optimize` printed stand. */
  readonly sites: SiteIndex;
  /** Saves the sites (atomically); the memo and pins are written by each run. */
  save(): void;
}

export function openStashDirectory(directory: string, logger: Logger): StashDirectory {
  fs.mkdirSync(directory, { recursive: true, mode: 0o700 });
  // A folder made by someone else with wider permissions is the user's alone from now on.
  fs.chmodSync(directory, 0o700);
  const key = readOrCreateKeyFile(path.join(directory, 'key'));
  const stash = new Stash({
    store: new FileBlobStore(path.join(directory, 'entries')),
    key,
    onProblem: (code, message) => logger.warn(code, message),
  });
  const store = new FolderStateStore(path.join(directory, 'state'));
  const memo = new MessageMemo(undefined, store);
  const state = new SessionStateStore(undefined, store);
  const sites = loadJson(path.join(directory, 'sites.json'), SiteIndex.fromJSON, () => new SiteIndex(), logger);
  return {
    directory,
    key,
    stash,
    store,
    memo,
    state,
    sites,
    save() {
      writeFileAtomic(path.join(directory, 'sites.json'), JSON.stringify(sites));
    },
  };
}


function loadJson<T>(file: string, parse: (value: unknown) => T, fresh: () => T, logger: Logger): T {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return fresh();
  }
  try {
    return parse(JSON.parse(text));
  } catch (error) {
    logger.warn('stash-file-ignored', `Herald: ${file} could not be read (${describeError(error)}); starting afresh`);
    return fresh();
  }
}

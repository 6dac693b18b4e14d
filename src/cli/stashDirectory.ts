/**
 * The CLI's stash folder: entries as files, the per-install HMAC key, the memo and pins
 * that keep consecutive `herald optimize` calls of one conversation cache-stable, and where
 * each optimized text's real elisions stand (for `herald expand`).
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { MessageMemo, SessionStateStore } from '../core/pipeline';
import { writeFileAtomic } from '../core/files';
import { FileBlobStore, Stash } from '../core/stash';
import type { Logger } from '../core/ports';
import { SiteIndex } from './siteIndex';
import { describeError } from '../core/errors';

export function defaultStashDirectory(): string {
  return process.env.HERALD_STASH_DIR ?? path.join(os.homedir(), '.herald', 'stash');
}

export interface StashDirectory {
  readonly directory: string;
  readonly stash: Stash;
  readonly memo: MessageMemo;
  readonly state: SessionStateStore;
  /** Where the real elisions of the texts `optimize` printed stand. */
  readonly sites: SiteIndex;
  /** Saves the memo, pins and sites (atomically, each file on its own). */
  save(): void;
}

export function openStashDirectory(directory: string, logger: Logger): StashDirectory {
  fs.mkdirSync(directory, { recursive: true, mode: 0o700 });
  const stash = new Stash({
    store: new FileBlobStore(path.join(directory, 'entries')),
    key: readOrCreateKey(path.join(directory, 'key')),
    onProblem: (code, message) => logger.warn(code, message),
  });
  const memo = loadJson(path.join(directory, 'memo.json'), MessageMemo.fromJSON, () => new MessageMemo(), logger);
  const state = loadJson(path.join(directory, 'state.json'), SessionStateStore.fromJSON, () => new SessionStateStore(), logger);
  const sites = loadJson(path.join(directory, 'sites.json'), SiteIndex.fromJSON, () => new SiteIndex(), logger);
  return {
    directory,
    stash,
    memo,
    state,
    sites,
    save() {
      writeFileAtomic(path.join(directory, 'memo.json'), JSON.stringify(memo));
      writeFileAtomic(path.join(directory, 'state.json'), JSON.stringify(state));
      writeFileAtomic(path.join(directory, 'sites.json'), JSON.stringify(sites));
    },
  };
}

function readOrCreateKey(file: string): Uint8Array {
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

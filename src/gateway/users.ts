/**
 * A team's users and their gateway tokens (`herald serve --users FILE`). The file holds a
 * SHA-256 of each token, never the token: a token is 32 random bytes (256 bits), so no
 * guessing or precomputation reaches it and a slow password hash (scrypt, argon2) would add
 * nothing but its cost on every request; a leaked file lets nobody in. `herald users add`
 * prints a new token once and stores its hash. The gateway reads the file again when it
 * changes, so users added or removed take effect without a restart.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import * as fs from 'node:fs';
import { z } from 'zod';
import { writeFileAtomic } from '../core/files';

export const USERS_SCHEMA_VERSION = 1;
/** Herald user tokens start so (the redaction knows the shape). */
export const USER_TOKEN_PREFIX = 'hrk_';
const NAME = /^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$/;
/** The file is read again at most this often when it changed. */
const RELOAD_INTERVAL_MS = 1000;

const userSchema = z.object({
  name: z.string().regex(NAME),
  /** `sha256:` and the hex digest of the token. */
  tokenHash: z.string().regex(/^sha256:[0-9a-f]{64}$/),
  admin: z.boolean().default(false),
  created: z.string().optional(),
});
const fileSchema = z.object({ schema: z.literal(USERS_SCHEMA_VERSION), users: z.array(userSchema) });
export type TeamFile = z.output<typeof fileSchema>;

export interface User {
  readonly name: string;
  /** An admin sees every user's records. */
  readonly admin: boolean;
}

export function hashToken(token: string): string {
  return `sha256:${createHash('sha256').update(token, 'utf8').digest('hex')}`;
}

/** A new token: the prefix and 32 random bytes, base64url. */
export function newToken(): string {
  return `${USER_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
}

export function isUserName(name: string): boolean {
  return NAME.test(name);
}

/** Reads a team file; a missing file is an empty team. Throws with what is wrong otherwise. */
export function readTeamFile(file: string): TeamFile {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT') return { schema: USERS_SCHEMA_VERSION, users: [] };
    throw error;
  }
  const parsed = fileSchema.safeParse(JSON.parse(text));
  if (!parsed.success) throw new Error(`Herald: the users file ${file} is not valid: ${parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}`);
  const names = new Set<string>();
  for (const user of parsed.data.users) {
    if (names.has(user.name)) throw new Error(`Herald: the users file ${file} names ${user.name} twice`);
    names.add(user.name);
  }
  return parsed.data;
}

/** Writes a team file readable by its owner only. */
export function writeTeamFile(file: string, team: TeamFile): void {
  writeFileAtomic(file, `${JSON.stringify(team, null, 2)}\n`, 0o600);
}

/** Adds a user with a fresh token; returns the token (shown once, stored only as its hash). */
export function addUser(file: string, name: string, admin: boolean, now = new Date()): string {
  if (!isUserName(name)) throw new Error(`Herald: a user name is 1-64 letters, digits, dots, dashes, underscores or @, starting with a letter or digit; not "${name}"`);
  const team = readTeamFile(file);
  if (team.users.some((user) => user.name === name)) throw new Error(`Herald: ${name} is already in ${file}; remove them first to give a new token`);
  const token = newToken();
  writeTeamFile(file, { ...team, users: [...team.users, { name, tokenHash: hashToken(token), admin, created: now.toISOString() }] });
  return token;
}

/** Removes a user; false when there was none of that name. */
export function removeUser(file: string, name: string): boolean {
  const team = readTeamFile(file);
  const users = team.users.filter((user) => user.name !== name);
  if (users.length === team.users.length) return false;
  writeTeamFile(file, { ...team, users });
  return true;
}

/** The users of a team file as the gateway asks for them, read again when the file changes. */
export class UserDirectory {
  private users: readonly { readonly user: User; readonly digest: Buffer }[] = [];
  private stamp = '';
  private checked = Number.NEGATIVE_INFINITY;

  /** Reads the file; throws when it is missing or not valid (a gateway must not start with no way in). */
  constructor(readonly file: string, private readonly onProblem: (message: string) => void = () => undefined, private readonly now: () => number = Date.now) {
    if (!fs.existsSync(file)) throw new Error(`Herald: there is no users file ${file}`);
    this.load(true);
  }

  /** The user a presented token belongs to; every entry is compared, in constant time. */
  find(token: string | undefined): User | undefined {
    this.reloadIfChanged();
    if (token === undefined || token.length === 0) return undefined;
    const digest = Buffer.from(hashToken(token).slice('sha256:'.length), 'hex');
    let found: User | undefined;
    for (const entry of this.users) if (timingSafeEqual(entry.digest, digest) && !found) found = entry.user;
    return found;
  }

  get size(): number {
    return this.users.length;
  }

  private reloadIfChanged(): void {
    if (this.now() - this.checked < RELOAD_INTERVAL_MS) return;
    this.load(false);
  }

  /** Reads the file when its stamp changed; a file that became unreadable keeps the users read before (and says so). */
  private load(first: boolean): void {
    this.checked = this.now();
    let stamp: string;
    try {
      const stat = fs.statSync(this.file);
      stamp = `${stat.mtimeMs}:${stat.size}:${stat.ino}`;
    } catch {
      stamp = 'missing';
    }
    if (stamp === this.stamp) return;
    try {
      const team = readTeamFile(this.file);
      this.users = team.users.map((user) => ({ user: { name: user.name, admin: user.admin }, digest: Buffer.from(user.tokenHash.slice('sha256:'.length), 'hex') }));
      this.stamp = stamp;
    } catch (error) {
      if (first) throw error;
      this.onProblem(`${error instanceof Error ? error.message : String(error)}; the users read before stay in force`);
      this.stamp = stamp;
    }
  }
}

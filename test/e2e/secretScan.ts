/**
 * Looks for a secret in every file under some folders, in the forms a leak would take on disk:
 * the text itself, UTF-16 (how Chromium and some databases keep strings), base64 and base64url
 * at each of the three byte alignments (so it is found inside a longer encoded blob), and hex.
 * Gzip files (rotated logs) are searched after unpacking too. Used by the end-to-end test to
 * prove that an endpoint key set in the running extension is written nowhere but secret storage.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as zlib from 'node:zlib';

/** One encoding of the secret, as the bytes to look for. */
export interface SecretForm {
  /** Names the encoding, e.g. "plain" or "base64 (offset 1)". */
  readonly name: string;
  readonly bytes: Buffer;
}

/** A file that holds the secret in some form. */
export interface SecretHit {
  readonly file: string;
  /** The form found, e.g. "plain" or "base64 (offset 2) in gunzipped content". */
  readonly form: string;
}

/** What a scan looked at and what it found. */
export interface SecretScanResult {
  /** Every regular file read, as absolute paths, sorted. */
  readonly scanned: readonly string[];
  /** Files left out because the caller excluded them. */
  readonly excluded: readonly string[];
  /** Files that could not be read (each with the reason): a scan with any of these proves nothing about them. */
  readonly unreadable: readonly { readonly file: string; readonly reason: string }[];
  readonly hits: readonly SecretHit[];
}

/** Options of {@link scanForSecret}. */
export interface SecretScanOptions {
  /** Absolute paths of files not to read (the one place a secret is allowed to be). Default: none. */
  readonly exclude?: readonly string[];
  /** Files larger than this are reported as unreadable instead of read. Default: 256 MB. */
  readonly maxFileBytes?: number;
}

/** The forms of `secret` to look for; base64 forms keep only the characters the secret alone decides. */
export function secretForms(secret: string): SecretForm[] {
  if (secret.length < 8) throw new Error('Herald e2e: a secret to scan for needs at least 8 characters (shorter ones match by chance)');
  const plain = Buffer.from(secret, 'utf8');
  const forms: SecretForm[] = [
    { name: 'plain', bytes: plain },
    { name: 'utf-16le', bytes: Buffer.from(secret, 'utf16le') },
    { name: 'hex', bytes: Buffer.from(plain.toString('hex'), 'latin1') },
  ];
  for (let offset = 0; offset < 3; offset++) {
    const encoded = Buffer.concat([Buffer.alloc(offset), plain]).toString('base64');
    // Character i of base64 carries bits [6i, 6i + 6) of the input: keep those inside the secret's own bits.
    const start = Math.ceil((8 * offset) / 6);
    const end = Math.floor((8 * (offset + plain.length)) / 6);
    const core = encoded.slice(start, end);
    forms.push({ name: `base64 (offset ${offset})`, bytes: Buffer.from(core, 'latin1') });
    const url = core.replace(/\+/g, '-').replace(/\//g, '_');
    if (url !== core) forms.push({ name: `base64url (offset ${offset})`, bytes: Buffer.from(url, 'latin1') });
  }
  return forms;
}

/** The forms of the secret found in `content` (named after the form). */
export function findSecretForms(content: Buffer, forms: readonly SecretForm[]): string[] {
  return forms.filter((form) => content.includes(form.bytes)).map((form) => form.name);
}

/**
 * Reads every regular file under `roots` (folders or single files; symbolic links are not followed,
 * so nothing outside the roots is read) and reports where `secret` appears in any of its forms.
 */
export function scanForSecret(roots: readonly string[], secret: string, options: SecretScanOptions = {}): SecretScanResult {
  const forms = secretForms(secret);
  const exclude = new Set((options.exclude ?? []).map((file) => path.resolve(file)));
  const maxFileBytes = options.maxFileBytes ?? 256 * 1024 * 1024;
  const scanned = new Set<string>();
  const excluded: string[] = [];
  const unreadable: { file: string; reason: string }[] = [];
  const hits: SecretHit[] = [];

  const visit = (entry: string): void => {
    let stat: fs.Stats;
    try {
      stat = fs.lstatSync(entry);
    } catch (error) {
      // Gone since its folder was listed (a log rotated, a temporary file renamed): nothing left to read.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      unreadable.push({ file: entry, reason: String(error) });
      return;
    }
    if (stat.isDirectory()) {
      let names: string[];
      try {
        names = fs.readdirSync(entry);
      } catch (error) {
        unreadable.push({ file: entry, reason: String(error) });
        return;
      }
      for (const name of names.sort()) visit(path.join(entry, name));
      return;
    }
    // Sockets, pipes and links hold no data of their own.
    if (!stat.isFile() || scanned.has(entry)) return;
    if (exclude.has(entry)) {
      excluded.push(entry);
      return;
    }
    if (stat.size > maxFileBytes) {
      unreadable.push({ file: entry, reason: `${stat.size} bytes, over the ${maxFileBytes}-byte limit` });
      return;
    }
    let content: Buffer;
    try {
      content = fs.readFileSync(entry);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      unreadable.push({ file: entry, reason: String(error) });
      return;
    }
    scanned.add(entry);
    for (const form of findSecretForms(content, forms)) hits.push({ file: entry, form });
    if (content.length > 2 && content[0] === 0x1f && content[1] === 0x8b) {
      try {
        for (const form of findSecretForms(zlib.gunzipSync(content), forms)) hits.push({ file: entry, form: `${form} in gunzipped content` });
      } catch {
        // Not gzip after all: the raw bytes were searched above.
      }
    }
  };
  for (const root of roots) visit(path.resolve(root));
  return { scanned: [...scanned].sort(), excluded, unreadable, hits };
}

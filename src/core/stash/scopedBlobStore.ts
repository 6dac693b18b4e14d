/**
 * One namespace of a shared blob store: its keys are the store's keys under a prefix, and it
 * lists, reads, writes and deletes nothing outside them. A gateway gives each tenant a stash
 * over its own namespace, so a handle from another tenant is simply not there; a shared store
 * (a key-value service) needs nothing more than the prefixed keys.
 */
import type { BlobInfo, BlobStore } from './blobStore';

/** Keys the namespace may take: what every store accepts as part of a key. */
const NAMESPACE = /^[a-z0-9-]{1,64}$/i;
const SEPARATOR = '.';

export class ScopedBlobStore implements BlobStore {
  private readonly prefix: string;

  constructor(private readonly store: BlobStore, namespace: string) {
    if (!NAMESPACE.test(namespace)) throw new Error(`Herald: a stash namespace is 1-64 letters, digits or dashes, not "${namespace}"`);
    this.prefix = `${namespace}${SEPARATOR}`;
  }

  get(key: string): Promise<string | undefined> {
    return this.store.get(this.prefix + key);
  }
  put(key: string, value: string): Promise<void> {
    return this.store.put(this.prefix + key, value);
  }
  delete(key: string): Promise<void> {
    return this.store.delete(this.prefix + key);
  }
  async list(prefix = ''): Promise<BlobInfo[]> {
    const wanted = this.prefix + prefix;
    return (await this.store.list(wanted)).filter((info) => info.key.startsWith(wanted)).map((info) => ({ ...info, key: info.key.slice(this.prefix.length) }));
  }
  touch(key: string): Promise<void> {
    return this.store.touch(this.prefix + key);
  }
}

/** The namespace and the key inside it of a store key that {@link ScopedBlobStore} wrote; undefined for an unscoped key. */
export function splitScopedKey(key: string): { namespace: string; key: string } | undefined {
  const at = key.indexOf(SEPARATOR);
  if (at <= 0) return undefined;
  const namespace = key.slice(0, at);
  return NAMESPACE.test(namespace) ? { namespace, key: key.slice(at + 1) } : undefined;
}

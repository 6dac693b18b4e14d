/** Where Herald's state lives beyond one process: the port and its engines. */
export { DEFAULT_STORE_MAX_BYTES, DEFAULT_STORE_TTL_MS, MemoryStateStore, prefixedStore, type StateStore, type StoreLimits, type StoreWrite } from './stateStore';
export { FolderStateStore } from './folderStateStore';
export { StoreBlobStore } from './storeBlobStore';

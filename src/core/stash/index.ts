export * from './blobStore';
export * from './marker';
export * from './stash';

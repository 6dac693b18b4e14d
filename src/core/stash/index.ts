export * from './blobStore';
export * from './elisionSite';
export * from './marker';
export * from './stash';
export * from './scopedBlobStore';

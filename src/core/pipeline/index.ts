export * from './types';
export * from './pipeline';
export * from './freshInput';
export * from './hash';
export * from './messageMemo';
export * from './sessionState';
export { invalidResult } from './validate';
export * from './elisionSites';
export * from './expandRequest';

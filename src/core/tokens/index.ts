export * from './tokenCounter';

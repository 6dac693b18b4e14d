export * from './tokenCounter';
export { forgetPieces } from './o200kCount';

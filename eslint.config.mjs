// ESLint flat config: zero warnings allowed (see package.json "lint").
import tseslint from 'typescript-eslint';

// The core runs in the CLI, the benchmarks and the unit tests: it must never reach for VS Code.
const noVscodeInCore = {
  paths: [{ name: 'vscode', message: 'src/core must not import vscode; put host code in src/vscode.' }],
  patterns: [{ group: ['**/vscode/**', '../vscode/*'], message: 'src/core must not import from src/vscode.' }],
};
// The product never ships test code: helpers and fixtures live under test/, and only the
// tests beside their code (*.test.ts) may import them.
const noTestInProduct = {
  patterns: [{ regex: '(^|/)test/', message: 'Product code under src/ must not import from test/; only *.test.ts files may.' }],
};

/** One no-restricted-imports setting from several (a later block's setting replaces, not merges). */
function restrictImports(...parts) {
  return { 'no-restricted-imports': ['error', { paths: parts.flatMap((part) => part.paths ?? []), patterns: parts.flatMap((part) => part.patterns ?? []) }] };
}

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', '.vscode-test/**', 'test/fixtures/**', 'test/.cache/**', 'test/e2e/artifacts/**', 'bench-results/**', '**/*.mjs', '**/*.js'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      eqeqeq: ['error', 'smart'],
    },
  },
  { files: ['src/**/*.ts'], ignores: ['src/**/*.test.ts', 'src/core/**'], rules: restrictImports(noTestInProduct) },
  { files: ['src/core/**/*.ts'], ignores: ['src/**/*.test.ts'], rules: restrictImports(noVscodeInCore, noTestInProduct) },
  { files: ['src/core/**/*.test.ts'], rules: restrictImports(noVscodeInCore) },
);

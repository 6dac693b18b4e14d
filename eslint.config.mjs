// ESLint flat config: zero warnings allowed (see package.json "lint").
import tseslint from 'typescript-eslint';

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
  {
    // The core runs in the CLI, the benchmarks and the unit tests: it must never reach for VS Code.
    files: ['src/core/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: [{ name: 'vscode', message: 'src/core must not import vscode; put host code in src/vscode.' }],
        patterns: [{ group: ['**/vscode/**', '../vscode/*'], message: 'src/core must not import from src/vscode.' }],
      }],
    },
  },
);

/**
 * The same end-to-end checks' core for machines that can download VS Code: runs
 * `suite.ts` inside a real VS Code (Electron) with Herald loaded from this checkout.
 *   npm run build && node --import tsx test/integration/runTest.ts
 * Not run on this project's CI machine, which cannot download VS Code (see test/e2e/run.ts,
 * which drives code-server instead).
 */
import * as path from 'node:path';
import * as esbuild from 'esbuild';
import { runTests } from '@vscode/test-electron';

async function main(): Promise<void> {
  const root = path.resolve(__dirname, '..', '..');
  const output = path.join(__dirname, '.out', 'suite.js');
  // The extension host loads plain CommonJS: bundle the suite (vscode stays external).
  await esbuild.build({ entryPoints: [path.join(__dirname, 'suite.ts')], outfile: output, bundle: true, platform: 'node', format: 'cjs', target: 'node20', external: ['vscode'] });
  await runTests({
    extensionDevelopmentPath: root,
    extensionTestsPath: output,
    launchArgs: [path.join(root, 'test', 'e2e', 'fixtures'), '--disable-workspace-trust', '--disable-extensions'],
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { ESLint } from 'eslint';

const ROOT = path.resolve(__dirname, '..', '..', '..');

/** The no-restricted-imports messages the project's config gives `code` placed at `file`. */
async function restrictedImports(file: string, code: string): Promise<string[]> {
  const eslint = new ESLint({ cwd: ROOT });
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
  return result!.messages.filter((message) => message.ruleId === 'no-restricted-imports').map((message) => message.message);
}

const FROM_TEST = "import { sharedPath } from '../../../test/support/sharedData';\nimport type { Trajectory } from '../../../test/support/sharedData';\nexport const probe: [typeof sharedPath, Trajectory | undefined] = [sharedPath, undefined];\n";

describe('lint: what product code may import', function () {
  this.timeout(60_000);

  it('fails product code under src/ that imports from test/, value or type, in the core and in the host', async () => {
    const core = await restrictedImports('src/core/strategies/probe.ts', FROM_TEST);
    assert.equal(core.length, 2, core.join('\n'));
    assert.ok(core.every((message) => message.includes('must not import from test/')));
    const host = await restrictedImports('src/vscode/probe.ts', FROM_TEST.replaceAll('../../../', '../../'));
    assert.equal(host.length, 2, host.join('\n'));
  });

  it('lets a test beside its code import from test/, and still keeps vscode out of the core', async () => {
    assert.deepEqual(await restrictedImports('src/core/strategies/probe.test.ts', FROM_TEST), []);
    const vscode = "import * as vscode from 'vscode';\nexport const probe = vscode;\n";
    assert.equal((await restrictedImports('src/core/strategies/probe.test.ts', vscode)).length, 1);
    assert.equal((await restrictedImports('src/core/strategies/probe.ts', vscode)).length, 1);
    assert.deepEqual(await restrictedImports('src/vscode/probe.ts', vscode), []);
  });
});

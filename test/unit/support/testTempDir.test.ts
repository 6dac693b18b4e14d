import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

describe('the test run\'s temporary folder', () => {
  it('holds every temporary folder a test makes, so the run can remove them all at its end', () => {
    assert.match(path.basename(os.tmpdir()), /^herald-test-/);
    const made = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-probe-'));
    assert.equal(path.dirname(made), os.tmpdir());
    fs.rmSync(made, { recursive: true, force: true });
  });
});

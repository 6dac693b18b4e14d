import { strict as assert } from 'node:assert';
import { failureLines, isFailureOutput } from './failure';

describe('isFailureOutput', () => {
  it('recognises flagged results, non-zero exits and printed failures', () => {
    assert.ok(isFailureOutput({ isError: true, text: 'fine' }));
    assert.ok(isFailureOutput({ isError: false, exitCode: 2, text: 'fine' }));
    assert.ok(isFailureOutput({ isError: false, text: 'Traceback (most recent call last):\n  File "x.py", line 1\nKeyError: 3' }));
    assert.ok(isFailureOutput({ isError: false, text: '==== 2 failed, 126 passed in 3.41s ====' }));
    assert.ok(isFailureOutput({ isError: false, text: '[Sun Dec 04 04:47:44 2005] [error] mod_jk child workerEnv in error state 6' }));
    assert.ok(isFailureOutput({ isError: false, text: '2026-06-01 10:00:01 ERROR [main] connection refused' }));
  });

  it('does not mistake prose, passing runs or a file that mentions errors for a failure', () => {
    assert.ok(!isFailureOutput({ isError: false, exitCode: 0, text: 'error handling is described below\n==== 12 passed in 0.2s ====\n0 errors' }));
    const source = '    Raises\n    ------\n    ValueError: If the header is malformed.\n';
    assert.ok(isFailureOutput({ isError: false, text: source }), 'on its own the line reads like a failure');
    assert.ok(!isFailureOutput({ isError: false, exitCode: 0, text: source, command: "sed -n '60,80p' astropy/io/ascii/qdp.py" }));
    assert.ok(!isFailureOutput({ isError: false, text: source, toolName: 'read_file' }));
    assert.ok(isFailureOutput({ isError: false, text: source, command: 'cat run.sh | bash' }), 'piping a file into a shell runs it');
  });

  it("reads a shell envelope's fields: an empty error and exit code 0 are no failure, an error or a non-zero exit is", () => {
    const envelope = (output: string, error: string, exit: number) => `Command: seq 1 3000\nDirectory: (root)\nOutput: ${output}\nError: ${error}\nExit Code: ${exit}\nSignal: (none)\nProcess Group PGID: (none)`;
    assert.ok(!isFailureOutput({ isError: false, text: envelope('1\n2\n3', '(none)', 0), command: 'seq 1 3000' }));
    assert.ok(isFailureOutput({ isError: false, text: envelope('', 'spawn ENOENT', 0), command: 'seq 1 3000' }));
    assert.ok(isFailureOutput({ isError: false, text: envelope('make: *** [build] Stop.', '(none)', 2), command: 'make build' }));
  });

  it('lists failure lines in order, up to a limit', () => {
    assert.deepEqual(failureLines('ok\nERROR: one\nfine\nFATAL: two\nERROR: three', 2), ['ERROR: one', 'FATAL: two']);
  });
});

import * as assert from 'node:assert/strict';
import { detectContentFormat } from './detect';
import { cleanStackTrace } from './stackTrace';

describe('cleanStackTrace', () => {
  it('collapses library frames of a Node trace and keeps the error and project frames', () => {
    const trace = [
      'TypeError: Cannot read properties of undefined (reading \'total\')',
      '    at refundOrder (/app/src/billing/refund.ts:41:22)',
      '    at Layer.handle [as handle_request] (/app/node_modules/express/lib/router/layer.js:95:5)',
      '    at next (/app/node_modules/express/lib/router/route.js:149:13)',
      '    at Route.dispatch (/app/node_modules/express/lib/router/route.js:119:3)',
      '    at Function.process_params (/app/node_modules/express/lib/router/index.js:346:12)',
      '    at handler (/app/src/api/routes.ts:88:5)',
      '    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)',
    ].join('\n');
    assert.equal(detectContentFormat(trace), 'stack-trace');
    const result = cleanStackTrace(trace);
    assert.equal(result.text, [
      'TypeError: Cannot read properties of undefined (reading \'total\')',
      '    at refundOrder (/app/src/billing/refund.ts:41:22)',
      '    … 4 library frames (express)',
      '    at handler (/app/src/api/routes.ts:88:5)',
      '    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)',
    ].join('\n'));
  });

  it('keeps Python frames as pairs and folds recursion', () => {
    const frame = ['  File "/app/tree.py", line 12, in walk', '    return walk(node.child)'];
    const trace = [
      'Traceback (most recent call last):',
      '  File "/app/main.py", line 3, in <module>',
      '    walk(root)',
      ...frame, ...frame, ...frame, ...frame,
      '  File "/usr/lib/python3.11/site-packages/attr/_make.py", line 80, in __getattr__',
      '    raise AttributeError(name)',
      'RecursionError: maximum recursion depth exceeded',
    ].join('\n');
    const result = cleanStackTrace(trace);
    assert.equal(result.text, [
      'Traceback (most recent call last):',
      '  File "/app/main.py", line 3, in <module>',
      '    walk(root)',
      ...frame,
      '    [previous frame repeated ×3]',
      '  File "/usr/lib/python3.11/site-packages/attr/_make.py", line 80, in __getattr__',
      '    raise AttributeError(name)',
      'RecursionError: maximum recursion depth exceeded',
    ].join('\n'));
  });

  it('collapses two Python library frames (four lines) into one line naming the standard library module; one frame stays', () => {
    const trace = [
      'Traceback (most recent call last):',
      '  File "/opt/conda/lib/python3.6/unittest/case.py", line 59, in testPartExecutor',
      '    yield',
      '  File "/opt/conda/lib/python3.6/unittest/case.py", line 605, in run',
      '    testMethod()',
      '  File "/repo/tests/test_tz.py", line 745, in test_local',
      '    self.assertEqual(a, b)',
      '  File "/opt/conda/lib/python3.6/unittest/case.py", line 829, in assertEqual',
      '    assertion_func(first, second, msg=msg)',
      'AssertionError: 1 != 2',
    ].join('\n');
    const result = cleanStackTrace(trace);
    assert.equal(result.text, [
      'Traceback (most recent call last):',
      '  … 2 library frames (unittest)',
      '  File "/repo/tests/test_tz.py", line 745, in test_local',
      '    self.assertEqual(a, b)',
      '  File "/opt/conda/lib/python3.6/unittest/case.py", line 829, in assertEqual',
      '    assertion_func(first, second, msg=msg)',
      'AssertionError: 1 != 2',
    ].join('\n'));
  });

  it('collapses Java runtime frames', () => {
    const trace = [
      'Exception in thread "main" java.lang.IllegalStateException: closed',
      '\tat com.example.billing.Ledger.post(Ledger.java:77)',
      '\tat java.base/java.util.ArrayList.forEach(ArrayList.java:1541)',
      '\tat java.base/jdk.internal.reflect.NativeMethodAccessorImpl.invoke0(Native Method)',
      '\tat java.base/jdk.internal.reflect.NativeMethodAccessorImpl.invoke(NativeMethodAccessorImpl.java:62)',
      '\tat org.junit.runners.ParentRunner.run(ParentRunner.java:413)',
      '\tat com.example.billing.LedgerTest.posts(LedgerTest.java:21)',
    ].join('\n');
    const result = cleanStackTrace(trace);
    assert.ok(result.text.includes('Ledger.java:77') && result.text.includes('LedgerTest.java:21'));
    assert.ok(result.text.includes('… 4 library frames'));
    assert.ok(!result.text.includes('ArrayList'));
  });

  it('collapses Go runtime frames and keeps the panic and the program\'s frames', () => {
    const trace = [
      'panic: runtime error: index out of range [3] with length 3',
      '',
      'goroutine 1 [running]:',
      'main.lookup(...)',
      '\t/home/me/app/main.go:12',
      'main.main()',
      '\t/home/me/app/main.go:20 +0x1d',
      'runtime.main()',
      '\t/usr/local/go/src/runtime/proc.go:271 +0x29d',
      'runtime.goexit()',
      '\t/usr/local/go/src/runtime/asm_amd64.s:1695 +0x1',
      'created by testing.(*T).Run in goroutine 1',
      '\t/usr/local/go/src/testing/testing.go:1742 +0x390',
    ].join('\n');
    assert.equal(detectContentFormat(trace), 'stack-trace');
    const result = cleanStackTrace(trace);
    for (const kept of ['panic: runtime error: index out of range [3] with length 3', 'goroutine 1 [running]:', 'main.lookup(...)', '\t/home/me/app/main.go:12', '\t/home/me/app/main.go:20 +0x1d']) assert.ok(result.text.includes(kept), kept);
    assert.ok(!result.text.includes('proc.go:271'));
  });
});

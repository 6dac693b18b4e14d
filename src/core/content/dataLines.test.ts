import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { itWithData, sharedPath } from '../../../test/support/sharedData';
import { dataLineKind, dataLineShare, isMixedData } from './dataLines';

describe('data lines', () => {
  it('tells each format of a paste by its lines', () => {
    const cases: [string, ReturnType<typeof dataLineKind>][] = [
      ['ts=2015-10-18T10:05:28.570Z level=warn thread=main logger=org.apache.hadoop.ipc.Client msg="Address change detected"', 'log'],
      ['{"ts":"2015-07-29T17:41:44.747Z","level":"INFO","msg":"Notification time out: 3200"}', 'log'],
      ['Jun 14 15:16:01 combo sshd(pam_unix)[19939]: authentication failure; logname= uid=0 euid=0 tty=NODEVssh ruser= rhost=218.188.2.4', 'log'],
      ['140.82.112.5 - - [19/Jul/2022:04:39:54 +0000] "GET /repos/octokit HTTP/1.1" 404 112 "-" "octokit-fixtures/1.0"', 'log'],
      ['- 1117838570 2005.06.03 R02-M1-N0-C:J12-U11 2005-06-03-15.42.50.675872 R02-M1-N0-C:J12-U11 RAS KERNEL INFO instruction cache parity error corrected', 'log'],
      ['# HELP http_request_duration_seconds Request latency.', 'metric-header'],
      ['http_request_duration_seconds{service="api",quantile="0.99"} 4.425 1445162775000', 'metric'],
      ['process_open_fds 12', 'metric'],
      ['{"trace_id":"71d3c969","span_id":"00013a","name":"proxy.connect","start":"2015-10-18T10:06:29.287Z","duration_ms":14000}', 'span'],
      // Jaeger's ids (traceID, spanID) and Zipkin's (traceId, id, parentId), one span a line as `jq -c` prints them.
      ['{"traceID":"5b8aa5a2d2c872e8","spanID":"1f2a","operationName":"HTTP GET /dispatch","startTime":1681395200000000,"duration":734000}', 'span'],
      ['{"traceId":"5b8aa5a2d2c872e8","id":"6b221d5bc9e6496c","parentId":"5b8aa5a2d2c872e8","name":"get /api","timestamp":1681395200000000,"duration":1850}', 'span'],
      ['{"id":"kb-0463#0","path":"kb/a.md","score":0.81}', 'record'],
      ['node_modules/undici/lib/handler/retry-handler.js:441:  retry () {', 'hit'],
      ['node_modules/undici/lib/handler/retry-handler.js-442-    const x = 1', 'hit'],
      ['--', 'hit'],
      ['    at org.apache.hadoop.ipc.Client.call(Client.java:1475)', 'frame'],
      ['  File "/testbed/django/db/backends/postgresql/client.py", line 36, in runshell_db', 'frame'],
      ['FAILED astropy/table/tests/test_mixin.py::test_ndarray_mixin - AssertionError', 'test'],
      ['--- FAIL: TestFailing (0.00s)', 'test'],
      ['test tests::it_works ... FAILED', 'test'],
      ['Which requests failed, and why did latency spike at 10:05?', undefined],
      ['def retry(self, request):', undefined],
      ['', undefined],
    ];
    for (const [line, kind] of cases) assert.equal(dataLineKind(line), kind, line);
  });

  itWithData('reads every real log of loghub as data, line by line', () => {
    for (const system of ['Android', 'Apache', 'HPC', 'Hadoop', 'HealthApp', 'Linux', 'Mac', 'OpenSSH', 'Proxifier', 'Zookeeper']) {
      const lines = fs.readFileSync(sharedPath('logs', system, `${system}_2k.log`), 'utf8').split(/\r?\n/);
      assert.ok(dataLineShare(lines) >= 0.95, `${system}: ${dataLineShare(lines)}`);
      assert.equal(isMixedData(lines), false, `${system} is one format`);
    }
  });

  it('calls a paste of two formats mixed, and prose not data', () => {
    const logs = Array.from({ length: 20 }, (_, index) => `ts=2015-10-18T10:05:${String(index).padStart(2, '0')}Z level=info msg="tick ${index}"`);
    const samples = Array.from({ length: 10 }, (_, index) => `http_requests_total{code="200"} ${1000 + index} 14451627${String(index).padStart(5, '0')}`);
    assert.equal(isMixedData([...logs, ...samples]), true);
    assert.equal(isMixedData(logs), false);
    assert.equal(dataLineShare(['Here is what I see.', 'It fails every night.', 'Any idea?']), 0);
  });
});

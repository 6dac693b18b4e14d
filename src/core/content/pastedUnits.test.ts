import * as assert from 'node:assert/strict';
import { splitPastedUnits, timeOfDayIn } from './pastedUnits';

describe('pasted units', () => {
  it('splits a mixed paste into log events with their frames, samples, spans and grep groups', () => {
    const lines = [
      '2015-10-18 10:05:57,009 ERROR [DataStreamer] org.apache.hadoop.hdfs.DFSClient: DataStreamer Exception',
      'java.io.IOException: Broken pipe',
      '    at sun.nio.ch.FileDispatcherImpl.write0(Native Method)',
      '    at org.apache.hadoop.hdfs.DFSOutputStream$DataStreamer.run(DFSOutputStream.java:551)',
      '',
      '# TYPE http_request_duration_seconds summary',
      'http_request_duration_seconds{quantile="0.99"} 4.425 1445162775000',
      '{"trace_id":"71d3c969","span_id":"00013a","name":"proxy.connect","service":"chrome.exe","start":"2015-10-18T10:06:29.287Z","duration_ms":14000}',
      'lib/retry.js-1-const x = 1',
      'lib/retry.js:2:function retry (opts) {',
      'lib/retry.js-3-  return opts',
      '--',
      'lib/client.js:9:  retry()',
    ];
    const units = splitPastedUnits(lines);
    assert.deepEqual(units.map((unit) => [unit.start, unit.end, unit.kind]), [[0, 5, 'log'], [5, 6, 'metric-header'], [6, 7, 'metric'], [7, 8, 'span'], [8, 12, 'hit'], [12, 13, 'hit']]);
    assert.equal(units[0]!.severity, 2);
    assert.equal(units[0]!.timeOfDay, 10 * 3600 + 5 * 60 + 57);
    assert.deepEqual([units[2]!.series, units[2]!.value], ['http_request_duration_seconds{quantile="0.99"}', 4.425]);
    assert.deepEqual([units[3]!.series, units[3]!.value], ['chrome.exe proxy.connect', 14000]);
    assert.equal(units[1]!.series, 'http_request_duration_seconds');
  });

  it('takes a span\'s severity from its status where it names one, in the forms tracers export', () => {
    const span = (status: string, extra = ''): string => `{"trace_id":"7a","span_id":"b1","name":"execute_tool Bash","duration_ms":40,${status}${extra}}`;
    const severities = [
      span('"status":"ERROR"'),
      span('"status_code":"ERROR"'),
      span('"status":{"code":"STATUS_CODE_ERROR","message":"exit 1"}'),
      span('"status":{"code":2}'),
      // Succeeded, though what it ran mentions an error: not a failure.
      span('"status":"OK"', ',"tool.input":"grep -rn ERROR logs/"'),
      span('"status":{"code":"STATUS_CODE_UNSET"}', ',"tool.input":"error: not found"'),
      // No status: an error tag as Zipkin and Jaeger write it, else what the line says.
      '{"traceId":"5b8a","id":"6b22","name":"get /api","duration":1850,"tags":{"http.status_code":"500","error":"Internal Server Error"}}',
      '{"traceID":"5b8a","spanID":"1f2a","operationName":"SELECT","duration":7000,"tags":[{"key":"error","type":"bool","value":true}]}',
      '{"traceID":"5b8a","spanID":"1f2b","operationName":"SELECT","duration":7000,"tags":[{"key":"otel.status_code","type":"string","value":"ERROR"}]}',
      '{"traceID":"5b8a","spanID":"1f2c","operationName":"SELECT","duration":7000,"tags":[{"key":"error","type":"bool","value":false}]}',
      '{"traceId":"5b8a","id":"6b23","name":"get /api","duration":1850,"tags":{"error":"false"}}',
      `{"trace_id":"7a","span_id":"b2","name":"db.query","duration_ms":12,"error":"ERROR deadlock detected"}`,
      `{"trace_id":"7a","span_id":"b3","name":"db.query","duration_ms":12}`,
    ].map((line) => splitPastedUnits([line])[0]!.severity);
    assert.deepEqual(severities, [2, 2, 2, 2, 0, 0, 2, 2, 2, 0, 0, 2, 0]);
  });

  it('reads the time of day a line names: clocks, ISO stamps, epoch milliseconds and seconds', () => {
    assert.equal(timeOfDayIn('ts=2015-10-18T10:05:28.570Z level=warn'), 36328);
    assert.equal(timeOfDayIn('Jun 14 15:16:01 combo sshd'), 55 * 1000 + 1 - 55 * 1000 + 15 * 3600 + 16 * 60);
    assert.equal(timeOfDayIn('up{job="api"} 1 1445162775000'), 10 * 3600 + 6 * 60 + 15);
    assert.equal(timeOfDayIn('- 1117838570 2005.06.03 R02'), 22 * 3600 + 42 * 60 + 50);
    assert.equal(timeOfDayIn('no time here'), undefined);
  });

  it('gives repeats of one event the same key, whatever their times and values', () => {
    const units = splitPastedUnits(['2015-10-18 10:05:27,570 WARN [x] Client: Address change detected. Old: msra-sa-41/10.190.173.170:9000', '2015-10-18 10:05:28,570 WARN [x] Client: Address change detected. Old: msra-sa-41/10.190.173.171:9000', '2015-10-18 10:05:28,570 WARN [x] LeaseRenewer: Failed to renew lease for 31 seconds']);
    assert.equal(units[0]!.key, units[1]!.key);
    assert.notEqual(units[0]!.key, units[2]!.key);
  });
});

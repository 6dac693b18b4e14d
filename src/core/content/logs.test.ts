import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { itWithData, sharedPath } from '../../../test/support/sharedData';
import { bookkeepingKey, isSevereLine } from './bookkeeping';
import { detectContentFormat } from './detect';
import { cleanLog } from './logs';
import { lineTemplate } from './logTemplates';
import { readCsv } from '../../../test/support/csv';

const SYSTEMS = ['Android', 'Apache', 'HPC', 'Hadoop', 'HealthApp', 'Linux', 'Mac', 'OpenSSH', 'Proxifier', 'Zookeeper'];

describe('cleanLog', () => {
  for (const system of SYSTEMS) {
    itWithData(`keeps every event template of the ${system} log (a line of it, or the event folded with its values) and every warning and error`, () => {
      const log = fs.readFileSync(sharedPath('logs', system, `${system}_2k.log`), 'utf8');
      const rows = readCsv(fs.readFileSync(sharedPath('logs', system, `${system}_2k.log_structured.csv`), 'utf8'));
      const header = rows[0]!;
      const content = header.indexOf('Content');
      const eventId = header.indexOf('EventId');
      const template = header.indexOf('EventTemplate');
      const byEvent = new Map<string, { contents: string[]; constant: string }>();
      for (const row of rows.slice(1)) {
        if (row.length !== header.length) continue;
        // The template's longest constant piece: what stays of the event when its values are folded.
        const constant = row[template]!.split('<*>').map((piece) => piece.trim()).sort((a, b) => b.length - a.length)[0]!;
        const known = byEvent.get(row[eventId]!) ?? { contents: [], constant };
        known.contents.push(row[content]!.trim());
        byEvent.set(row[eventId]!, known);
      }
      assert.equal(detectContentFormat(log), 'log', 'detected as a log');
      const result = cleanLog(log);
      const missing = [...byEvent].filter(([, event]) => !event.contents.some((text) => result.text.includes(text)) && !result.text.includes(event.constant)).map(([id]) => id);
      assert.deepEqual(missing, [], 'templates with no line left');
      // A warning or error line is never gone: it is there, or folded into a line with its key,
      // or into a line of its template that lists the value it differs in.
      const kept = result.text.split('\n').map((line) => ({ line: line.replace(/ \[×\d+[^\]]*\]$/, ''), note: / (\[×\d+[^\]]*\])$/.exec(line)?.[1] ?? '' }));
      const keptKeys = new Set(kept.map((entry) => bookkeepingKey(entry.line)));
      const byTemplate = new Map(kept.map((entry) => [lineTemplate(entry.line).key, entry.note]));
      for (const line of log.split('\n').filter(isSevereLine)) {
        const template = lineTemplate(line);
        const note = byTemplate.get(template.key);
        assert.ok(keptKeys.has(bookkeepingKey(line)) || (note !== undefined && template.slots.every((value) => note.includes(`${value} ×`) || kept.some((entry) => entry.line.includes(value)))), `kept: ${line}`);
      }
      assert.ok(result.text.length < log.length, 'smaller');
    });
  }

  it('folds lines that differ only in bookkeeping, with a count', () => {
    const lines = Array.from({ length: 21 }, (_, index) => `2026-03-0${1 + (index % 9)} 10:00:${String(index).padStart(2, '0')},123 INFO [req ${4000 + index * 17}] POST /api/checkout took ${20 + index}ms from 10.0.0.${index}:${5000 + index * 7}`);
    const result = cleanLog(`${lines.join('\n')}\n`);
    assert.equal(result.text, `${lines[0]} [×21, 10:00:00,123–10:00:20,123; from 21 distinct values]\n`);
    assert.deepEqual(result.removed, ['20 repeated log entries folded into 1 counted line']);
  });

  it('keeps one blank line of a run, a frame after a blank line with it, and folds a blank line too long for the patterns like any other line', () => {
    const long = ' '.repeat(4_001);
    const text = ['INFO job 1 started', '', '  at worker.run (w.js:3:1)', '', '', '', 'INFO job 2 started', long, long, 'INFO job 3 started', '', ''].join('\n');
    const result = cleanLog(text);
    assert.equal(result.text, ['INFO job 1 started [×3]', '', '  at worker.run (w.js:3:1)', '', `${long} [×2]`, '', ''].join('\n'));
    assert.deepEqual(result.removed, ['3 repeated log entries folded into 2 counted lines', '2 blank lines']);
  });

  it('never folds lines that differ in path, identifier or status code', () => {
    const text = [
      '10:00:01 GET /api/orders 200',
      '10:00:02 GET /api/orders 500',
      '10:00:03 GET /api/refunds 200',
      '10:00:04 cache miss for userProfile',
      '10:00:05 cache miss for orderTotals',
    ].join('\n');
    assert.equal(cleanLog(text).text, text);
  });

  it('folds a repeated error wherever it recurs, with the time span it covers, and never into another error', () => {
    const text = ['09:00:01 ERROR disk full on /var', '09:00:02 ERROR disk full on /var', '09:00:03 INFO retrying', '09:00:04 ERROR disk full on /var', '09:00:05 ERROR disk full on /home'].join('\n');
    assert.equal(cleanLog(text).text, ['09:00:01 ERROR disk full on /var [×3, 09:00:01–09:00:04]', '09:00:03 INFO retrying', '09:00:05 ERROR disk full on /home'].join('\n'));
  });

  it('folds other entries by template and lists the values that varied, with their counts', () => {
    const lines = [
      ...Array.from({ length: 6 }, (_, index) => `Dec 10 07:0${index}:00 host sshd[${2400 + index}]: Failed password for root from 183.62.140.253 port ${40000 + index} ssh2`),
      ...Array.from({ length: 2 }, (_, index) => `Dec 10 08:0${index}:00 host sshd[${2500 + index}]: Failed password for root from 187.141.143.180 port ${41000 + index} ssh2`),
      'Dec 10 09:00:00 host sshd[2600]: Accepted password for fztu from 119.137.62.142 port 49116 ssh2',
    ];
    assert.deepEqual(cleanLog(lines.join('\n')).text.split('\n'), [
      `${lines[0]} [×8, 07:00:00–08:01:00; from 183.62.140.253 ×6, 187.141.143.180 ×2]`,
      lines[8],
    ]);
  });

  it('folds structured JSON-lines logs that differ only in bookkeeping', () => {
    const lines = Array.from({ length: 12 }, (_, index) => `{"level":"info","ts":"2026-03-01T10:00:${String(index).padStart(2, '0')}.120Z","msg":"cache refreshed","took":"${10 + index}ms","request_id":"9f${index}ab3c1"}`);
    lines.push('{"level":"error","ts":"2026-03-01T10:01:00.000Z","msg":"cache refresh failed","path":"/var/cache/app"}');
    const text = lines.join('\n');
    assert.equal(detectContentFormat(text), 'log');
    assert.equal(cleanLog(text).text, `${lines[0]} [×12]\n${lines[12]}`);
  });

  it('keeps continuation lines with their entry', () => {
    const entry = (time: string): string[] => [`${time} WARN worker crashed`, '\tat app.Worker.run(Worker.java:42)', '\tat java.lang.Thread.run(Thread.java:829)'];
    const result = cleanLog([...entry('10:00:01'), ...entry('10:00:01'), '10:00:03 INFO restarted'].join('\n'));
    assert.equal(result.text, [`10:00:01 WARN worker crashed [×2]`, '\tat app.Worker.run(Worker.java:42)', '\tat java.lang.Thread.run(Thread.java:829)', '10:00:03 INFO restarted'].join('\n'));
  });
});

describe('bookkeepingKey', () => {
  it('masks timestamps, durations, ids, hex, IP addresses and ports', () => {
    const pairs: [string, string][] = [
      ['2015-10-18 18:01:47,978 INFO took 35ms', '2016-01-02 03:04:05,111 INFO took 7ms'],
      ['Dec 10 06:55:46 LabSZ sshd[24200]: Invalid user admin from 173.234.31.186', 'Dec 11 07:01:02 LabSZ sshd[24999]: Invalid user admin from 10.1.2.3'],
      ['session 9f4ef63a closed', 'session 1b2c3d4e closed'],
      ['connect to 10.0.0.1:5432 failed', 'connect to 10.0.0.2:6543 failed'],
      ['job 1445144423722 finished', 'job 1445144429999 finished'],
      ['request id=abc-123 done', 'request id=zzz-999 done'],
      ['[Sun Dec 04 04:47:44 2005] [notice] Found child 6725 in slot 10', '[Mon Dec 05 11:02:03 2005] [notice] Found child 8100 in slot 10'],
      ['proxy:5070 close, 1024 bytes (1.0 KB) sent', 'proxy:5070 close, 20480 bytes (20.0 KB) sent'],
    ];
    for (const [first, second] of pairs) assert.equal(bookkeepingKey(first), bookkeepingKey(second), `${first} ~ ${second}`);
  });

  it('keeps paths, identifiers, words and status codes', () => {
    const pairs: [string, string][] = [
      ['GET /api/orders 200', 'GET /api/orders 500'],
      ['GET /api/orders 200', 'GET /api/refunds 200'],
      ['loaded module billing', 'loaded module shipping'],
      ['retry 3 of 5', 'retry 4 of 5'],
      ['Found child 6725 in slot 10', 'Found child 6725 in slot 11'],
    ];
    for (const [first, second] of pairs) assert.notEqual(bookkeepingKey(first), bookkeepingKey(second), `${first} ≠ ${second}`);
  });
});

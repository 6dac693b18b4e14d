import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { itWithData, sharedPath } from '../../../test/support/sharedData';
import { bookkeepingKey, isSevereLine } from './bookkeeping';
import { detectContentFormat } from './detect';
import { cleanLog } from './logs';

/** A CSV reader for LogHub's structured files (quoted fields, doubled quotes). */
function readCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let index = 0; index < text.length; index++) {
    const character = text[index]!;
    if (quoted) {
      if (character === '"' && text[index + 1] === '"') {
        field += '"';
        index++;
      } else if (character === '"') quoted = false;
      else field += character;
    } else if (character === '"') quoted = true;
    else if (character === ',') {
      row.push(field);
      field = '';
    } else if (character === '\n') {
      rows.push([...row, field]);
      row = [];
      field = '';
    } else if (character !== '\r') field += character;
  }
  if (field !== '' || row.length > 0) rows.push([...row, field]);
  return rows;
}

const SYSTEMS = ['Android', 'Apache', 'HPC', 'Hadoop', 'HealthApp', 'Linux', 'Mac', 'OpenSSH', 'Proxifier', 'Zookeeper'];

describe('cleanLog', () => {
  for (const system of SYSTEMS) {
    itWithData(`keeps every event template of the ${system} log and every warning and error`, () => {
      const log = fs.readFileSync(sharedPath('logs', system, `${system}_2k.log`), 'utf8');
      const rows = readCsv(fs.readFileSync(sharedPath('logs', system, `${system}_2k.log_structured.csv`), 'utf8'));
      const header = rows[0]!;
      const content = header.indexOf('Content');
      const eventId = header.indexOf('EventId');
      const byEvent = new Map<string, string[]>();
      for (const row of rows.slice(1)) {
        if (row.length !== header.length) continue;
        byEvent.set(row[eventId]!, [...(byEvent.get(row[eventId]!) ?? []), row[content]!.trim()]);
      }
      assert.equal(detectContentFormat(log), 'log', 'detected as a log');
      const result = cleanLog(log);
      const missing = [...byEvent].filter(([, contents]) => !contents.some((text) => result.text.includes(text))).map(([id]) => id);
      assert.deepEqual(missing, [], 'templates with no line left');
      // A warning or error line is never gone: it is there, or folded into a line with its key.
      const keptKeys = new Set(result.text.split('\n').map((line) => bookkeepingKey(line.replace(/ \[×\d+\]$/, ''))));
      for (const line of log.split('\n').filter(isSevereLine)) assert.ok(keptKeys.has(bookkeepingKey(line)), `kept: ${line}`);
      assert.ok(result.text.length < log.length, 'smaller');
    });
  }

  it('folds lines that differ only in bookkeeping, with a count', () => {
    const lines = Array.from({ length: 21 }, (_, index) => `2026-03-0${1 + (index % 9)} 10:00:${String(index).padStart(2, '0')},123 INFO [req ${4000 + index * 17}] POST /api/checkout took ${20 + index}ms from 10.0.0.${index}:${5000 + index * 7}`);
    const result = cleanLog(`${lines.join('\n')}\n`);
    assert.equal(result.text, `${lines[0]} [×21]\n`);
    assert.deepEqual(result.removed, ['20 repeated log entries folded into 1 counted line']);
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

  it('folds a repeated error only into the error right before it', () => {
    const text = ['09:00:01 ERROR disk full on /var', '09:00:02 ERROR disk full on /var', '09:00:03 INFO retrying', '09:00:04 ERROR disk full on /var'].join('\n');
    assert.equal(cleanLog(text).text, ['09:00:01 ERROR disk full on /var [×2]', '09:00:03 INFO retrying', '09:00:04 ERROR disk full on /var'].join('\n'));
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

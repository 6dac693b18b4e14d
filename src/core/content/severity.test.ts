import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { readCsv } from '../../../test/support/csv';
import { itWithData, sharedPath } from '../../../test/support/sharedData';
import { lineSeverity } from './severity';

describe('line severity', () => {
  it('ranks by the level a line names, and an INFO line that merely says "error" is no error', () => {
    assert.equal(lineSeverity('- 1117838570 2005.06.03 R02-M1-N0-C:J12-U11 2005-06-03-15.42.50.675872 R02-M1-N0-C:J12-U11 RAS KERNEL INFO instruction cache parity error corrected'), 0);
    assert.equal(lineSeverity('KERNDTLB 1118536327 2005.06.11 R30-M0-N9-C:J16-U01 2005-06-11-17.32.07.581048 R30-M0-N9-C:J16-U01 RAS KERNEL FATAL data TLB error interrupt'), 3);
    assert.equal(lineSeverity('ts=2024-01-01T10:05:00Z level=error msg="upstream timed out"'), 2);
    assert.equal(lineSeverity('{"level":"warn","msg":"retrying"}'), 1);
    assert.equal(lineSeverity('[Sun Dec 04 04:47:44 2005] [error] mod_jk child workerEnv in error state 6'), 2);
    assert.equal(lineSeverity('03-17 16:13:38.811  1702  2395 E WindowManager: crash'), 2);
    assert.equal(lineSeverity('2015-10-18 18:05:50,680 SEVERE [main] org.x.Y: lost'), 3);
    // Without a level, what the line says decides.
    assert.equal(lineSeverity('java.io.IOException: Broken pipe'), 2);
    assert.equal(lineSeverity('connection refused by 10.0.0.1'), 1);
    assert.equal(lineSeverity('all good'), 0);
  });

  itWithData('agrees with the level loghub recorded for every line of the logs that have one', () => {
    const rank: Record<string, number> = { INFO: 0, WARN: 1, ERROR: 2, FATAL: 3 };
    for (const system of ['Hadoop', 'Zookeeper']) {
      const lines = fs.readFileSync(sharedPath('logs', system, `${system}_2k.log`), 'utf8').split(/\r?\n/).filter((line) => line !== '');
      const [header, ...rows] = readCsv(fs.readFileSync(sharedPath('logs', system, `${system}_2k.log_structured.csv`), 'utf8')).filter((row) => row.length > 1);
      const level = header!.indexOf('Level');
      rows.forEach((row, index) => assert.equal(lineSeverity(lines[index]!), rank[row[level]!], `${system} line ${index + 1}: ${lines[index]}`));
    }
  });
});

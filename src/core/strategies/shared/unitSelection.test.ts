import * as assert from 'node:assert/strict';
import { splitPastedUnits } from '../../content/pastedUnits';
import { pastedCutPays } from './pastePays';
import { questionCues, selectUnits } from './unitSelection';

const OPTIONS = { keepRatio: 0.1, minKept: 1, relativeScoreFloor: 0.25 };

function select(lines: string[], question: string, scores?: number[]): string[] {
  const units = splitPastedUnits(lines);
  const texts = units.map((unit) => lines.slice(unit.start, unit.end).join('\n'));
  const kept = selectUnits(units, texts, scores ?? units.map(() => 0), questionCues(question), OPTIONS);
  return texts.filter((_, index) => kept[index]);
}

describe('unit selection', () => {
  it('reads the question\'s cues: a named time, failures, definitions', () => {
    const cues = questionCues('Why did latency spike at 10:05, and where is retry defined?');
    assert.deepEqual(cues.windows, [[10 * 3600 + 4 * 60, 10 * 3600 + 8 * 60]]);
    assert.equal(cues.definitions, true);
    assert.equal(questionCues('what failed at 2:30 pm?').windows[0]![0], 14 * 3600 + 29 * 60);
    assert.equal(questionCues('what failed?').failures, true);
  });

  it('keeps the warnings of the time the question names, each event twice and its last repeat, and errors folded the same way', () => {
    const lines = [
      ...Array.from({ length: 30 }, (_, index) => `2015-10-18 10:0${index < 15 ? 1 : 5}:${String(10 + index).padStart(2, '0')},000 WARN [x] Client: Address change detected. Old: node-${index}`),
      ...Array.from({ length: 10 }, (_, index) => `2015-10-18 10:09:${String(10 + index).padStart(2, '0')},000 ERROR [x] Allocator: ERROR IN CONTACTING RM.`),
      ...Array.from({ length: 20 }, (_, index) => `2015-10-18 10:02:${String(10 + index).padStart(2, '0')},000 INFO [x] Allocator: heartbeat ${index}`),
    ];
    const kept = select(lines, 'What went wrong around 10:05?');
    const warnings = kept.filter((text) => text.includes('WARN'));
    assert.deepEqual(warnings.map((text) => text.slice(11, 19)), ['10:05:25', '10:05:26', '10:05:39'], 'the warnings of 10:05 only: two and the last');
    assert.equal(kept.filter((text) => text.includes('ERROR')).length, 3, 'every error event kept, its repeats folded');
    assert.equal(kept.filter((text) => text.includes('heartbeat')).length, 0);
  });

  it('keeps each series\' extremes, spikes and last reading, the slowest spans and the headers of kept families', () => {
    const samples = [0.09, 0.1, 0.09, 0.11, 4.425, 0.1, 0.09, 0.1].map((value, index) => `http_request_duration_seconds{quantile="0.99"} ${value} 14451627${String(index * 15).padStart(2, '0')}000`);
    const spans = [400, 1000, 22000, 400, 14000, 18000, 700].map((duration, index) => `{"trace_id":"t${index}","span_id":"s${index}","name":"proxy.connect","start":"2015-10-18T10:05:1${index}Z","duration_ms":${duration}}`);
    const kept = select(['# HELP http_request_duration_seconds Latency.', '# TYPE other_total counter', ...samples, ...spans], 'find the latency spike');
    assert.ok(kept.includes('# HELP http_request_duration_seconds Latency.') && !kept.includes('# TYPE other_total counter'));
    assert.ok(kept.some((text) => text.includes(' 4.425 ')), 'the spike');
    assert.ok(kept.some((text) => text.startsWith('http_request_duration_seconds{quantile="0.99"} 0.09 ')), 'the lowest reading');
    assert.deepEqual(kept.filter((text) => text.startsWith('{')).map((text) => /"duration_ms":(\d+)/.exec(text)![1]), ['22000', '14000', '18000']);
  });

  it('keeps every span that failed, however fast, and no span that succeeded for it', () => {
    // Twelve tool calls of one name, four of them failed (quick, each with another message), three slow.
    const failed = new Set([1, 4, 7, 10]);
    const slow: Record<number, number> = { 5: 90_000, 6: 80_000, 8: 70_000 };
    const spans = Array.from({ length: 12 }, (_, index) => `{"trace_id":"t1","span_id":"call${index}","name":"execute_tool Bash","duration_ms":${slow[index] ?? 20 + index},"status":"${failed.has(index) ? 'ERROR' : 'OK'}"${failed.has(index) ? `,"error.message":"exit code ${index} in step ${index}"` : ''}}`);
    const kept = select(spans, 'Which tool calls failed, and why?');
    const ids = kept.map((text) => /"span_id":"(\w+)"/.exec(text)![1]);
    assert.deepEqual(ids.filter((id) => failed.has(Number(id.slice(4)))), ['call1', 'call4', 'call7', 'call10']);
    assert.deepEqual(ids.filter((id) => !failed.has(Number(id.slice(4)))), ['call5', 'call6', 'call8'], 'the slowest spans still show, no quick one that succeeded');
  });

  it('keeps the hits that define what the question names when it asks where it is defined', () => {
    const lines = ['lib/a.js:3:  return retry(opts)', '--', 'lib/b.js:41:  retry () {', '--', 'lib/c.js:13:function calculateRetryAfterHeader (retryAfter) {', '--', 'lib/d.js:7:  this.retry = null', '--', 'lib/e.py:8:def retry_http_basic_auth(self, host):'];
    const kept = select(lines, 'Where is retry defined, not just used?');
    assert.deepEqual(kept.map((text) => text.split(':')[0]), ['lib/b.js', 'lib/c.js', 'lib/e.py']);
  });
});

describe('paste pricing', () => {
  it('prices a cut with caching: it pays when its saving outweighs the retrieve round it risks', () => {
    // A chat's short prompt: a 100-token paste cut to a third and a marker pays, a 60-token one does not.
    assert.equal(pastedCutPays({ pastedTokens: 100, keptTokens: 100 / 3 + 40, otherTokens: 2_000 }), true);
    assert.equal(pastedCutPays({ pastedTokens: 60, keptTokens: 20 + 40, otherTokens: 2_000 }), false);
    // Under an agent's 30,000-token prompt it takes about 500 tokens.
    assert.equal(pastedCutPays({ pastedTokens: 400, keptTokens: 400 / 3 + 40, otherTokens: 30_000 }), false);
    assert.equal(pastedCutPays({ pastedTokens: 600, keptTokens: 600 / 3 + 40, otherTokens: 30_000 }), true);
    // Later turns read what the cut saved at a tenth, every turn.
    assert.equal(pastedCutPays({ pastedTokens: 400, keptTokens: 400 / 3 + 40, otherTokens: 30_000, laterTurns: 10 }), true);
  });
});

import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Decision } from '../../../src/core/pipeline/types';
import { createStrategies } from '../../../src/core/strategies/index';
import type { RequestRecord } from '../../../src/core/flow/requestFlow';
import { guessLanguage } from '../../../src/vscode/commands/guessLanguage';
import { DecisionLog, EMPTY_TOTALS, SAVINGS_REPORT_SCHEMA_VERSION, savingsReportCsv, savingsReportJson } from '../../../src/vscode/decisions/decisionLog';
import { compactNumber, statusText } from '../../../src/vscode/host/statusText';
import { explainRecord } from '../../../src/vscode/knowledge/explainRecord';
import { manifestContributions } from '../../../src/vscode/manifest/contributes';
import { pipelineConfigOf } from '../../../src/vscode/optimizer/optimizer';
import { readSettings } from '../../../src/vscode/settings/settingsSchema';
import { strategySettingKey } from '../../../src/vscode/settings/strategySettingNames';

function decision(strategy: string, handles: string[] = [], tokensBefore = 100, tokensAfter = 100): Decision {
  return { strategy, status: tokensAfter < tokensBefore ? 'applied' : 'unchanged', action: 'done', reason: 'because, "quoted"', tokensBefore, tokensAfter, durationMs: 1, handles };
}

function record(id: string, tokensBefore: number, tokensAfter: number, decisions: Decision[] = [], extra: Partial<RequestRecord> = {}): RequestRecord {
  return { id, startedAt: Date.UTC(2026, 0, 1), model: 'Fake', status: 'optimized', tokensBefore, tokensAfter, optimizeMs: 3, totalMs: 40, decisions, handles: decisions.flatMap((entry) => entry.handles), retrievals: 1, replayedMessages: 0, ...extra };
}

describe('decision log', () => {
  it('keeps totals over the whole session while holding only the most recent requests', () => {
    const log = new DecisionLog(2);
    let changes = 0;
    log.onDidChange(() => changes++);
    log.add(record('a', 1000, 600));
    log.add(record('b', 500, 500, [], { status: 'forwarded-original', error: 'boom' }));
    log.add(record('c', 500, 400));
    assert.deepEqual(log.list().map((entry) => entry.id), ['b', 'c']);
    assert.deepEqual(log.sessionTotals(), { ...EMPTY_TOTALS, requests: 3, tokensBefore: 2000, tokensAfter: 1500, tokensSaved: 500, savedPercent: 25, retrievals: 3, failures: 1 });
    assert.equal(log.last()?.id, 'c');
    assert.equal(changes, 3);
  });

  it('lists recent handles newest first, each once', () => {
    const log = new DecisionLog();
    log.add(record('a', 10, 5, [decision('observation_mask', ['hr_aaaaaaaaaaaaaaaa', 'hr_bbbbbbbbbbbbbbbb'])]));
    log.add(record('b', 10, 5, [decision('context_dedupe', ['hr_bbbbbbbbbbbbbbbb', 'hr_cccccccccccccccc'])]));
    assert.deepEqual(log.recentHandles().map((entry) => `${entry.handle}:${entry.strategy}`), ['hr_bbbbbbbbbbbbbbbb:context_dedupe', 'hr_cccccccccccccccc:context_dedupe', 'hr_aaaaaaaaaaaaaaaa:observation_mask']);
  });

  it('exports CSV with quoting and JSON with a schema version', () => {
    const records = [record('a', 1000, 600, [decision('observation_mask', ['hr_aaaaaaaaaaaaaaaa'], 1000, 600)], { error: 'a, "b"' })];
    const csv = savingsReportCsv(records).split('\r\n');
    assert.equal(csv[0], 'id,started,model,origin,status,tokens_before,tokens_after,saved_tokens,saved_percent,optimize_ms,total_ms,rounds,round_tokens,billing,premium_requests,billed_input_tokens,billed_cached_tokens,billed_cache_write_tokens,billed_output_tokens,billed_usd,without_herald_usd,price_key,retrievals,strategies_applied,handles,error');
    assert.equal(csv[1], 'a,2026-01-01T00:00:00.000Z,Fake,caller,optimized,1000,600,400,40,3,40,,,unknown,0,,,,,,,,1,observation_mask,hr_aaaaaaaaaaaaaaaa,"a, ""b"""');
    const json = JSON.parse(savingsReportJson(records, new DecisionLog().sessionTotals())) as { schema: number; requests: unknown[] };
    assert.equal(json.schema, SAVINGS_REPORT_SCHEMA_VERSION);
    assert.equal(json.requests.length, 1);
  });

  it('explains the last request as a table, and says what to do when there is none', () => {
    assert.match(explainRecord(undefined), /pick a "Herald · …" model/i);
    const text = explainRecord(record('a', 1000, 600, [decision('observation_mask', ['hr_aaaaaaaaaaaaaaaa'], 1000, 600), decision('context_dedupe')]));
    assert.match(text, /1,000 → 600 tokens \(40% saved\)/);
    assert.match(text, /\| observation_mask \| done \| −400 \|/);
    assert.match(text, /\| context_dedupe \| done \| — \|/);
    assert.match(text, /hr_aaaaaaaaaaaaaaaa/);
  });

  it('puts tokens saved in the status bar', () => {
    assert.equal(compactNumber(1349), '1.3k');
    assert.equal(compactNumber(2_500_000), '2.5M');
    assert.equal(compactNumber(999), '999');
    assert.equal(statusText({ ...EMPTY_TOTALS, requests: 2, tokensBefore: 5000, tokensAfter: 3650, tokensSaved: 1350, savedPercent: 27 }, true).text, '$(sparkle) 1.4k saved');
    assert.match(statusText(EMPTY_TOTALS, false).text, /off/);
  });

  it('guesses the language of an original from its content', () => {
    assert.equal(guessLanguage('{"a": [1, 2]}'), 'json');
    assert.equal(guessLanguage('{ not json'), 'plaintext');
    assert.equal(guessLanguage('diff --git a/x b/x\n--- a/x\n+++ b/x'), 'diff');
    assert.equal(guessLanguage('Traceback (most recent call last):\n  File "x.py"'), 'python');
    assert.equal(guessLanguage('<!DOCTYPE html><html></html>'), 'html');
  });
});

describe('pipeline configuration from settings', () => {
  const strategies = createStrategies({});

  it('passes known overrides and leaves out (and reports) what the strategies do not know', () => {
    const known = strategies.find((strategy) => Object.keys(strategy.defaults ?? {}).length > 0)!;
    const [option, value] = Object.entries(known.defaults!)[0]!;
    const { settings } = readSettings((key) =>
      key === 'strategy' ? { [known.id]: { enabled: false, options: { [option]: value, madeUp: 1 } }, not_a_strategy: { enabled: true, options: {} } } : undefined,
    );
    const { config, problems } = pipelineConfigOf(settings, strategies);
    assert.deepEqual(config.enabled, { [known.id]: false, ...(known.id === 'semantic_cache' ? {} : { semantic_cache: false }) });
    assert.deepEqual(config.options, { [known.id]: { [option]: value } });
    assert.equal(problems.length, 2);
    assert.ok(problems.some((problem) => problem.includes('unknown option "madeUp"')));
    assert.ok(problems.some((problem) => problem.includes('not_a_strategy')));
  });
});

describe('package.json contributions', () => {
  const manifest = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../../package.json'), 'utf8')) as { contributes: Record<string, unknown>; activationEvents: string[] };
  const expected = manifestContributions(createStrategies({}));

  /** Strategy defaults change while strategies are tuned; they are documentation (Herald reads only what the user set). */
  function withoutStrategyDefaults(contributes: Record<string, unknown>): unknown {
    const copy = JSON.parse(JSON.stringify(contributes)) as { configuration: { properties: Record<string, { default?: unknown; properties?: Record<string, { default?: unknown }> }> } };
    for (const [key, property] of Object.entries(copy.configuration.properties)) {
      if (!key.startsWith('herald.strategy.')) continue;
      delete property.default;
      for (const option of Object.values(property.properties ?? {})) delete option.default;
    }
    return copy;
  }

  it('match what the code declares (strategy defaults aside)', () => {
    assert.deepEqual(withoutStrategyDefaults(manifest.contributes), withoutStrategyDefaults(expected.contributes), 'package.json is out of date: run `node --import tsx src/vscode/manifest/writeManifest.ts`');
    assert.deepEqual(manifest.activationEvents, expected.activationEvents);
  });

  it('give every command the Herald category, and every setting a description and a default', () => {
    const commands = expected.contributes.commands as { category: string; title: string }[];
    assert.ok(commands.every((command) => command.category === 'Herald' && command.title.length > 0));
    const properties = (expected.contributes.configuration as { properties: Record<string, { description?: string; markdownDescription?: string; default?: unknown; markdownDeprecationMessage?: string }> }).properties;
    for (const [key, property] of Object.entries(properties)) {
      assert.ok((property.description ?? property.markdownDescription ?? '').length > 10, `${key} has a description`);
      // A retired setting has no default on purpose: left unset, it must read as unset (see retiredStrategies.ts).
      assert.ok('default' in property || property.markdownDeprecationMessage !== undefined, `${key} has a default`);
    }
    for (const strategy of createStrategies({})) assert.ok(`herald.${strategySettingKey(strategy.id, 'enabled')}` in properties, `${strategy.id} can be switched`);
  });
});

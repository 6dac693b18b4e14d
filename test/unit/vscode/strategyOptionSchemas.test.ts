import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseRequest } from '../../../src/core/chat';
import { checkOptions, describeOptions, optionDefaults, strategySummary } from '../../../src/core/pipeline/optionSchema';
import { Pipeline } from '../../../src/core/pipeline';
import { MemoryBlobStore, Stash } from '../../../src/core/stash';
import { createStrategies } from '../../../src/core/strategies/index';
import { TokenCounter } from '../../../src/core/tokens';
import { manifestContributions } from '../../../src/vscode/manifest/contributes';
import { strategiesMarkdown, strategyOptionsMarkdown, withStrategies, withStrategyOptions } from '../../../src/vscode/manifest/readmeOptions';
import { strategySettingKey } from '../../../src/vscode/settings/strategySettingNames';

const ROOT = path.resolve(__dirname, '..', '..', '..');

describe('strategy options declared once', () => {
  const strategies = createStrategies({});

  it('every strategy with parameters declares them in a schema, each with a description, and its defaults come from it', () => {
    for (const strategy of strategies) {
      if (Object.keys(strategy.defaults ?? {}).length === 0) continue;
      assert.ok(strategy.optionSchema, `${strategy.id} has parameters but no option schema`);
      assert.deepEqual(strategy.defaults, optionDefaults(strategy.optionSchema), strategy.id);
      for (const option of describeOptions(strategy.optionSchema)) {
        assert.ok(option.description.length >= 10 && !option.description.includes('\n'), `${strategy.id}.${option.name}: one-line description`);
        assert.notEqual(option.default, undefined, `${strategy.id}.${option.name}: default`);
        if (option.type === 'number' || option.type === 'integer') assert.ok(option.minimum !== undefined, `${strategy.id}.${option.name}: a lower bound`);
      }
    }
  });

  it('every strategy says what it does in one sentence, and its on/off setting says it too', () => {
    const properties = (manifestContributions(strategies).contributes.configuration as { properties: Record<string, { markdownDescription?: string }> }).properties;
    for (const strategy of strategies) {
      const summary = strategySummary(strategy.optionSchema);
      assert.ok(summary.length >= 30 && summary.endsWith('.') && !summary.includes('\n'), `${strategy.id}: a one-sentence summary in its option schema`);
      const enabled = properties[`herald.${strategySettingKey(strategy.id, 'enabled')}`]!.markdownDescription!;
      assert.ok(enabled.includes(summary), `${strategy.id}: the enabled setting says what the strategy does`);
      assert.doesNotMatch(enabled, /^Run the /, strategy.id);
    }
  });

  it('rejects an unknown name, a wrong type and a value out of range, naming the option and the strategy', () => {
    const dedupe = strategies.find((strategy) => strategy.id === 'context_dedupe')!;
    assert.throws(() => checkOptions('context_dedupe', dedupe.optionSchema!, { nearSimilarity: 1.5 }), /Herald: context_dedupe option "nearSimilarity" must be between 0 and 1, got 1\.5/);
    assert.throws(() => checkOptions('context_dedupe', dedupe.optionSchema!, { nearDupe: 'yes' }), /Herald: context_dedupe option "nearDupe" must be true or false, got "yes"/);
    assert.throws(() => checkOptions('context_dedupe', dedupe.optionSchema!, { nearness: 1 }), /Herald: unknown option "nearness" for strategy "context_dedupe"/);
    checkOptions('context_dedupe', dedupe.optionSchema!, { nearSimilarity: 0.9, maxAnchors: 3 });
  });

  it('fails only that strategy open when a value is wrong, with the reason, and the configuration when a name is unknown', async () => {
    const stash = new Stash({ store: new MemoryBlobStore(), key: new Uint8Array(32) });
    const pipeline = new Pipeline(createStrategies(), { enabled: { reasoning_budget: true }, options: { reasoning_budget: { openaiEffort: 'extreme' } } }, { stash, tokens: new TokenCounter(1000) });
    const request = parseRequest({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hello' }] });
    const result = await pipeline.run(request);
    const decision = result.decisions.find((each) => each.strategy === 'reasoning_budget')!;
    assert.equal(decision.status, 'failed');
    assert.match(decision.reason, /reasoning_budget option "openaiEffort" must be one of none, minimal, low, medium, high, xhigh, got "extreme"/);
    assert.throws(() => new Pipeline(createStrategies(), { options: { reasoning_budget: { effort: 'low' } } }, { stash, tokens: new TokenCounter(1000) }), /Herald: unknown option "effort" for strategy "reasoning_budget"/);
  });

  it('package.json describes every parameter with its default and range, as written from the schemas', () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { contributes: { configuration: { properties: Record<string, { markdownDescription?: string; properties?: Record<string, { markdownDescription?: string; minimum?: number; maximum?: number }> }> } } };
    const expected = manifestContributions(strategies).contributes.configuration as { properties: unknown };
    assert.deepEqual(manifest.contributes.configuration.properties, expected.properties, 'package.json is out of date: run `node --import tsx src/vscode/manifest/writeManifest.ts`');
    const similarity = manifest.contributes.configuration.properties['herald.strategy.contextDedupe.options']!.properties!.nearSimilarity!;
    assert.equal(similarity.markdownDescription, 'Share of lines (0–1) a near-duplicate must have in common with the earlier copy. Default `0.8`, from 0 to 1.');
    assert.deepEqual([similarity.minimum, similarity.maximum], [0, 1]);
    assert.match(manifest.contributes.configuration.properties['herald.endpoints']!.markdownDescription!, /\*\*Herald · &lt;name&gt;\*\*/);
  });

  it('the README tables are the ones the schemas give', () => {
    const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    assert.equal(readme, withStrategyOptions(readme, strategyOptionsMarkdown(strategies)), 'README.md strategy tables are out of date: run `node --import tsx src/vscode/manifest/writeManifest.ts`');
    assert.match(readme, /\| `nearSimilarity` \| `0\.8` \| from 0 to 1 \| Share of lines/);
  });

  it('the README strategy table is the one the registry and the summaries give, in pipeline order', () => {
    const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    assert.equal(readme, withStrategies(readme, strategiesMarkdown(strategies)), 'README.md strategy table is out of date: run `node --import tsx src/vscode/manifest/writeManifest.ts`');
    const ids = [...readme.matchAll(/^\| `([a-z_]+)` \| (?:on|off)(?: \((?:on|off) in VS Code\))? \|/gm)].map((match) => match[1]);
    assert.deepEqual(ids, strategies.map((strategy) => strategy.id));
    assert.throws(() => withStrategies('no markers here', ''), /README\.md has no "<!-- strategies:begin/);
  });
});

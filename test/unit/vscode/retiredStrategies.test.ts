import { strict as assert } from 'node:assert';
import { createStrategies } from '../../../src/core/strategies';
import { pipelineConfigOf } from '../../../src/vscode/optimizer/optimizer';
import { readSettings } from '../../../src/vscode/settings/settingsSchema';
import { manifestContributions } from '../../../src/vscode/manifest/contributes';

describe('retired strategy settings', () => {
  const strategies = createStrategies();

  it('reads tool_pruning settings as tool_catalog and says so', () => {
    const values: Record<string, unknown> = { strategy: { tool_pruning: { enabled: false, options: { keepTools: ['jira_search'], neverPrunePrefixes: ['mcp__', 'corp_'], minTools: 5 } } } };
    const { settings } = readSettings((key) => values[key]);
    const { config, problems } = pipelineConfigOf(settings, strategies);
    assert.equal(config.enabled?.tool_catalog, false);
    assert.deepEqual(config.options?.tool_catalog, { keepTools: ['jira_search'], keepPrefixes: ['corp_'] });
    assert.equal(config.enabled?.tool_pruning, undefined);
    assert.equal(problems.length, 1);
    assert.match(problems[0]!, /tool_pruning is retired.*toolCatalog.*minTools has no counterpart/);
  });

  it("lets tool_catalog's own settings win over the retired ones", () => {
    const values: Record<string, unknown> = { strategy: { tool_pruning: { enabled: false, options: { keepTools: ['a'] } }, tool_catalog: { enabled: true, options: { keepTools: ['b'] } } } };
    const { config } = pipelineConfigOf(readSettings((key) => values[key]).settings, strategies);
    assert.equal(config.enabled?.tool_catalog, true);
    assert.deepEqual(config.options?.tool_catalog, { keepTools: ['b'] });
  });

  it('says nothing when the retired settings are not set', () => {
    const { problems } = pipelineConfigOf(readSettings(() => undefined).settings, strategies);
    assert.deepEqual(problems, []);
  });

  it('declares the retired settings as deprecated in the manifest, pointing at the successor', () => {
    const properties = (manifestContributions(strategies).contributes.configuration as { properties: Record<string, { markdownDeprecationMessage?: string }> }).properties;
    assert.match(properties['herald.strategy.tool_pruning.enabled']!.markdownDeprecationMessage!, /tool_catalog/);
    assert.ok(properties['herald.strategy.toolCatalog.enabled']);
  });
});

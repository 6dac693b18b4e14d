import { strict as assert } from 'node:assert';
import { createStrategies, STRATEGY_ORDER } from '../../../src/core/strategies/index';
import { manifestContributions } from '../../../src/vscode/manifest/contributes';
import { pipelineConfigOf } from '../../../src/vscode/optimizer/optimizer';
import { readSettings } from '../../../src/vscode/settings/settingsSchema';
import { strategySettingKey, strategySettingName, userStrategySettings, type InspectedSetting } from '../../../src/vscode/settings/strategySettingNames';

/** A stand-in for `configuration.inspect`: the values the user set, by key under `herald.`, at the global level. */
function inspectOf(values: Record<string, unknown>): (key: string) => InspectedSetting | undefined {
  return (key) => (key in values ? { globalValue: values[key] } : undefined);
}

describe('strategy setting names', () => {
  const strategies = createStrategies({});
  const properties = (manifestContributions(strategies).contributes.configuration as { properties: Record<string, { markdownDeprecationMessage?: string; default?: unknown }> }).properties;

  it('carry the id in camel case, so the Settings editor titles it in words', () => {
    assert.equal(strategySettingName('command_digest'), 'commandDigest');
    assert.equal(strategySettingKey('tool_schema_compression', 'options'), 'strategy.toolSchemaCompression.options');
    for (const strategy of strategies) {
      const key = `herald.${strategySettingKey(strategy.id, 'enabled')}`;
      assert.ok(key in properties && properties[key]!.markdownDeprecationMessage === undefined, key);
      assert.doesNotMatch(key, /_/, key);
    }
  });

  it('keep the old keys declared as deprecated, pointing at the new ones', () => {
    const old = properties['herald.strategy.command_digest.enabled'];
    assert.ok(old, 'the old key is still declared');
    assert.match(old.markdownDeprecationMessage ?? '', /herald\.strategy\.commandDigest\.enabled/);
    assert.equal('default' in old, false, 'left unset, the old key reads as unset');
  });

  it('read a setting written under the old key, and the new key wins over it', () => {
    const oldOnly = userStrategySettings(STRATEGY_ORDER, inspectOf({ 'strategy.command_digest.enabled': false, 'strategy.history_trim.options': { keepTurns: 3 } }));
    assert.deepEqual(oldOnly.command_digest, { enabled: false });
    assert.deepEqual(oldOnly.history_trim, { options: { keepTurns: 3 } });
    const both = userStrategySettings(STRATEGY_ORDER, inspectOf({ 'strategy.command_digest.enabled': false, 'strategy.commandDigest.enabled': true }));
    assert.deepEqual(both.command_digest, { enabled: true });
    assert.deepEqual(Object.keys(userStrategySettings(STRATEGY_ORDER, inspectOf({}))), [], 'nothing set, nothing passed on');
    const config = pipelineConfigOf(readSettings((key) => (key === 'strategy' ? oldOnly : undefined)).settings, strategies).config;
    assert.equal(config.enabled?.command_digest, false, 'the old key still switches the strategy off');
  });
});

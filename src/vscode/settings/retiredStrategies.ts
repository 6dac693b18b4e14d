/**
 * Strategies that were retired and what their settings became, so a user's old settings keep
 * working and the settings editor says where they went.
 *
 * `tool_pruning` removed the tools a conversation did not seem to need (and, protecting only
 * Claude Code's `mcp__` names, removed Copilot's `mcp_…` tools the model then called).
 * `tool_catalog` replaces it: nothing is removed, unused schemas are listed in a catalog the
 * model loads from. Its `enabled` switch and its `keepTools` carry over; `neverPrunePrefixes`
 * becomes `keepPrefixes` (less `mcp__`, which only stood in for "never remove MCP tools" and
 * needs no protection when nothing is removed); `minTools` and `commonWordShare` have no
 * counterpart (the catalog is offered when it saves `minSavedTokens`, and ties words used by
 * at most `tieWordMaxTools` tools).
 */
import type { HeraldSettings } from './settingsSchema';
import { strategySettingName } from './strategySettingNames';

type StrategySettings = HeraldSettings['strategies'];

/** The retired id and the id that took over its settings. */
export const RETIRED_STRATEGIES: Readonly<Record<string, string>> = { tool_pruning: 'tool_catalog' };

/** The strategy settings with retired ids read as their successors' (a successor's own setting wins), and a note for each. */
export function migrateRetiredStrategies(strategies: StrategySettings): { strategies: StrategySettings; notes: string[] } {
  const notes: string[] = [];
  let out: StrategySettings = strategies;
  for (const [retired, successor] of Object.entries(RETIRED_STRATEGIES)) {
    const old = strategies[retired];
    if (!old || (old.enabled === undefined && Object.keys(old.options).length === 0)) continue;
    const current = strategies[successor] ?? { options: {} };
    const options: Record<string, unknown> = {};
    const dropped: string[] = [];
    for (const [name, value] of Object.entries(old.options)) {
      if (name === 'keepTools') options.keepTools = value;
      else if (name === 'neverPrunePrefixes' && Array.isArray(value)) {
        const prefixes = value.filter((prefix) => prefix !== 'mcp__');
        if (prefixes.length > 0) options.keepPrefixes = prefixes;
      } else dropped.push(name);
    }
    out = {
      ...out,
      [successor]: { enabled: current.enabled ?? old.enabled, options: { ...options, ...current.options } },
    };
    delete (out as Record<string, unknown>)[retired];
    notes.push(
      `herald.strategy.${retired} is retired: its settings are read as herald.strategy.${strategySettingName(successor)}'s` +
        (dropped.length > 0 ? ` (${dropped.join(', ')} has no counterpart and is ignored)` : '') +
        `; move them there to silence this note`,
    );
  }
  return { strategies: out, notes };
}

/** Manifest entries for the retired settings: shown as deprecated, pointing at their successor. */
export function retiredSettingProperties(): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (const [retired, successor] of Object.entries(RETIRED_STRATEGIES)) {
    const message = `Retired: \`${retired}\` became \`${successor}\`, which lists unused tools in a catalog instead of removing them. Herald reads this setting as \`herald.strategy.${strategySettingName(successor)}\`'s; move it there.`;
    properties[`herald.strategy.${retired}.enabled`] = { type: 'boolean', markdownDeprecationMessage: message, markdownDescription: message };
    properties[`herald.strategy.${retired}.options`] = { type: 'object', markdownDeprecationMessage: message, markdownDescription: message };
  }
  return properties;
}

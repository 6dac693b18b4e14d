/**
 * The README's table of strategies and its tables of strategy parameters, written from each
 * strategy's option schema (`writeManifest.ts` puts them between their markers; a unit test
 * fails when they drift).
 */
import { describeOptions, strategySummary } from '../../core/pipeline/optionSchema';
import type { Strategy } from '../../core/pipeline/types';
import { formatValue, rangeText } from './contributes';
import { editorDefaultEnabled } from '../settings/editorDefaults';
import { strategySettingKey } from '../settings/strategySettingNames';

export const README_OPTIONS_BEGIN = '<!-- strategy-options:begin (written by src/vscode/manifest/writeManifest.ts) -->';
export const README_OPTIONS_END = '<!-- strategy-options:end -->';
export const README_STRATEGIES_BEGIN = '<!-- strategies:begin (written by src/vscode/manifest/writeManifest.ts) -->';
export const README_STRATEGIES_END = '<!-- strategies:end -->';

/** One row per strategy, in pipeline order: its id, whether it is on by default, its summary. */
export function strategiesMarkdown(strategies: readonly Strategy[]): string {
  const rows = strategies.map((strategy) => `| \`${strategy.id}\` | ${defaultText(strategy)} | ${strategySummary(strategy.optionSchema).replaceAll('|', '\\|')} |`);
  return ['| id | default | what it does |', '|---|---|---|', ...rows].join('\n');
}

/** "on", "off", or both when the editor's default differs from the gateway's and the CLI's. */
function defaultText(strategy: Strategy): string {
  const core = strategy.defaultEnabled ? 'on' : 'off';
  const editor = editorDefaultEnabled(strategy) ? 'on' : 'off';
  return editor === core ? core : `${core} (${editor} in VS Code)`;
}

/** One table per strategy that has parameters, in pipeline order. */
export function strategyOptionsMarkdown(strategies: readonly Strategy[]): string {
  const sections: string[] = [];
  for (const strategy of strategies) {
    if (strategy.optionSchema === undefined) continue;
    const options = describeOptions(strategy.optionSchema);
    if (options.length === 0) continue;
    const rows = options.map((option) => `| \`${option.name}\` | ${formatValue(option.default)} | ${rangeText(option).replace(/^, /, '') || '—'} | ${option.description.replaceAll('|', '\\|')} |`);
    sections.push([`**\`${strategy.id}\`** (\`herald.${strategySettingKey(strategy.id, 'options')}\`)`, '', '| option | default | range | what it sets |', '|---|---|---|---|', ...rows].join('\n'));
  }
  return sections.join('\n\n');
}

/** The README with the parameter tables between their markers replaced; an error when the markers are missing. */
export function withStrategyOptions(readme: string, markdown: string): string {
  return between(readme, README_OPTIONS_BEGIN, README_OPTIONS_END, markdown);
}

/** The README with the strategy table between its markers replaced; an error when the markers are missing. */
export function withStrategies(readme: string, markdown: string): string {
  return between(readme, README_STRATEGIES_BEGIN, README_STRATEGIES_END, markdown);
}

function between(readme: string, beginMarker: string, endMarker: string, markdown: string): string {
  const begin = readme.indexOf(beginMarker);
  const end = readme.indexOf(endMarker);
  if (begin === -1 || end < begin) throw new Error(`Herald: README.md has no "${beginMarker}" … "${endMarker}" section`);
  return `${readme.slice(0, begin + beginMarker.length)}\n${markdown}\n${readme.slice(end)}`;
}

/**
 * The README's tables of strategy parameters, written from each strategy's option schema
 * (`writeManifest.ts` puts them between the markers; a unit test fails when they drift).
 */
import { describeOptions } from '../../core/pipeline/optionSchema';
import type { Strategy } from '../../core/pipeline/types';
import { formatValue, rangeText } from './contributes';

export const README_OPTIONS_BEGIN = '<!-- strategy-options:begin (written by src/vscode/manifest/writeManifest.ts) -->';
export const README_OPTIONS_END = '<!-- strategy-options:end -->';

/** One table per strategy that has parameters, in pipeline order. */
export function strategyOptionsMarkdown(strategies: readonly Strategy[]): string {
  const sections: string[] = [];
  for (const strategy of strategies) {
    if (strategy.optionSchema === undefined) continue;
    const options = describeOptions(strategy.optionSchema);
    if (options.length === 0) continue;
    const rows = options.map((option) => `| \`${option.name}\` | ${formatValue(option.default)} | ${rangeText(option).replace(/^, /, '') || '—'} | ${option.description.replaceAll('|', '\\|')} |`);
    sections.push([`**\`${strategy.id}\`** (\`herald.strategy.${strategy.id}.options\`)`, '', '| option | default | range | what it sets |', '|---|---|---|---|', ...rows].join('\n'));
  }
  return sections.join('\n\n');
}

/** The README with the text between the markers replaced; an error when the markers are missing. */
export function withStrategyOptions(readme: string, markdown: string): string {
  const begin = readme.indexOf(README_OPTIONS_BEGIN);
  const end = readme.indexOf(README_OPTIONS_END);
  if (begin === -1 || end < begin) throw new Error(`Herald: README.md has no "${README_OPTIONS_BEGIN}" … "${README_OPTIONS_END}" section`);
  return `${readme.slice(0, begin + README_OPTIONS_BEGIN.length)}\n${markdown}\n${readme.slice(end)}`;
}

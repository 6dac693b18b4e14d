/**
 * Herald's o200k counter (gpt-tokenizer's vocabulary, the pre-tokenizer as a scanner, each
 * distinct piece merged once) against gpt-tokenizer's own `countTokens`, on every real text in
 * ../shared/data (see test/support/realTexts.ts): the counts must be the same for every text but
 * those holding U+FEFF, which gpt-tokenizer never merges, where the plain merge's count is the
 * reference (see test/support/bytePairOracle.ts); the bench fails otherwise. And the CPU time of
 * each per source folder.
 *   npm run bench -- tokenizerExactness
 */
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { countO200k } from '../../src/core/tokens/o200kCount';
import { referenceCount } from '../support/bytePairOracle';
import { realTexts } from '../support/realTexts';
import { hasSharedData } from '../support/sharedData';
import type { BenchReport } from './run';

const GPT_TOKENIZER_OPTIONS = { disallowedSpecial: new Set<string>() };

function cpuMs(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
}

export async function bench(): Promise<BenchReport> {
  const title = 'o200k token counts: Herald\'s counter against gpt-tokenizer on every real text';
  if (!hasSharedData()) return { title, lines: ['skipped: ../shared/data is absent'] };
  const lines: string[] = [];
  let texts = 0;
  let characters = 0;
  let mismatches = 0;
  let referenceMs = 0;
  let oursMs = 0;
  for (const source of realTexts()) {
    const chars = source.texts.reduce((sum, text) => sum + text.length, 0);
    let started = process.cpuUsage();
    const expected = source.texts.map((text) => countTokens(text, GPT_TOKENIZER_OPTIONS));
    const reference = cpuMs(started);
    started = process.cpuUsage();
    const counted = source.texts.map((text) => countO200k(text));
    const ours = cpuMs(started);
    const unlike = source.texts.filter((_, index) => expected[index] !== counted[index]);
    // gpt-tokenizer never merges a byte-order mark's bytes: there the plain merge decides.
    const differing = unlike.filter((text) => !text.includes('\ufeff') || referenceCount(text) !== countO200k(text));
    lines.push(`${source.folder}: ${source.texts.length} texts, ${(chars / 1e6).toFixed(1)} M chars, ${differing.length} counts differ${unlike.length > differing.length ? ` (${unlike.length - differing.length} more from gpt-tokenizer's, each holding U+FEFF, as the plain merge counts them)` : ''}; CPU gpt-tokenizer ${reference.toFixed(0)} ms, Herald ${ours.toFixed(0)} ms (${(reference / ours).toFixed(1)}×)`);
    texts += source.texts.length;
    characters += chars;
    mismatches += differing.length;
    referenceMs += reference;
    oursMs += ours;
  }
  // One piece of any length: a run of whitespace is one o200k piece however long, and merging it
  // scanned every pair at each step (seconds for 100,000 spaces) until the heap merge.
  for (const [label, unit] of [['spaces', ' '], ['line breaks', '\n'], ['spaces and tabs', ' \t  ']] as const) {
    for (const length of [20_000, 200_000]) {
      const text = unit.repeat(Math.ceil(length / unit.length)).slice(0, length);
      let started = process.cpuUsage();
      const counted = countO200k(text);
      const ours = cpuMs(started);
      let versus = '';
      if (length <= 20_000) {
        started = process.cpuUsage();
        const expected = countTokens(text, GPT_TOKENIZER_OPTIONS);
        const reference = cpuMs(started);
        if (expected !== counted) mismatches++;
        versus = `; gpt-tokenizer ${reference.toFixed(0)} ms, ${expected === counted ? 'the same count' : `COUNT DIFFERS (${expected})`}`;
      }
      lines.push(`a run of ${length.toLocaleString('en-US')} ${label}: ${counted} tokens, Herald ${ours.toFixed(0)} ms CPU${versus}`);
    }
  }
  lines.push(`all: ${texts} texts, ${(characters / 1e6).toFixed(1)} M chars, ${mismatches} counts differ; ${(referenceMs / oursMs).toFixed(1)}× as fast (${referenceMs.toFixed(0)} → ${oursMs.toFixed(0)} ms CPU)`);
  if (mismatches > 0) process.exitCode = 1;
  await Promise.resolve();
  return { title, lines, figures: { texts, characters, mismatches, referenceMs, oursMs } };
}

/**
 * The bundle being put together: its blocks and their token counts, so every addition is
 * checked against the budget before it is made, and the whole-page share is kept.
 */
import { countTokens } from '../tokens';
import type { JudgedVerdict } from './judge';
import type { KnowledgeOptions } from './options';
import { REFERENCE_HEADING, RULES_HEADING, renderExcerpts, renderFullPage } from './render';
import type { ContextPage, InclusionReason } from './result';
import type { Candidate } from './search';
import type { Page } from './types';

/** Tokens between blocks (blank lines). */
const JOIN_COST = 1;

interface ExcerptEntry {
  readonly page: Page;
  readonly candidates: Candidate[];
  readonly reasons: InclusionReason[];
  readonly verdicts: (JudgedVerdict | undefined)[];
  block: string;
  tokens: number;
}

/** Keeps the bundle's blocks and their token counts, so every addition is checked against the budget. */
export class Assembly {
  private header = '';
  private readonly rules: { page: Page; block: string; tokens: number }[] = [];
  private readonly whole: { page: Page; reason: InclusionReason; block: string; tokens: number }[] = [];
  private readonly excerpts = new Map<string, ExcerptEntry>();
  private wholeTokens = 0;
  rulesOverBudget = false;

  constructor(private readonly budget: number, private readonly options: KnowledgeOptions, private readonly viewer: string | undefined) {}

  setHeader(header: string): void {
    this.header = header;
  }

  private used(): number {
    const headings = countTokens(RULES_HEADING) + countTokens(REFERENCE_HEADING) + 4 * JOIN_COST;
    let total = countTokens(this.header) + headings;
    for (const entry of this.rules) total += entry.tokens + JOIN_COST;
    total += this.wholeTokens;
    for (const entry of this.excerpts.values()) total += entry.tokens + JOIN_COST;
    return total;
  }

  /** Tokens left in the budget. */
  room(): number {
    return this.budget - this.used();
  }

  addRule(page: Page): void {
    const block = renderFullPage(page, this.viewer);
    this.rules.push({ page, block, tokens: countTokens(block) });
    if (this.used() > this.budget) this.rulesOverBudget = true;
  }

  hasWhole(pageId: string): boolean {
    return this.whole.some((entry) => entry.page.id === pageId) || this.rules.some((entry) => entry.page.id === pageId);
  }

  /** Adds a page in full if it fits; `capped` pages also stay within the whole-page share. */
  addWhole(page: Page, reason: InclusionReason, capped = true): boolean {
    if (this.hasWhole(page.id)) return true;
    const block = renderFullPage(page, this.viewer);
    const tokens = countTokens(block) + JOIN_COST;
    if (capped && this.wholeTokens + tokens > Math.floor(this.budget * this.options.wholePageShare)) return false;
    if (this.used() + tokens > this.budget) return false;
    this.whole.push({ page, reason, block, tokens });
    this.wholeTokens += tokens;
    return true;
  }

  /** Adds one section or row to its page's excerpts if the budget allows. */
  addExcerpt(page: Page, candidate: Candidate, reason: InclusionReason, verdict: JudgedVerdict | undefined): boolean {
    const existing = this.excerpts.get(page.id);
    // A row whose whole section is already in adds nothing.
    if (existing && candidate.unit.kind === 'row' && existing.candidates.some((other) => other.unit.kind === 'section' && other.unit.sectionId === candidate.unit.sectionId)) return true;
    const units = [...(existing?.candidates ?? []), candidate].map((entry) => entry.unit);
    const block = renderExcerpts(page, units, this.viewer);
    const tokens = countTokens(block);
    const growth = tokens - (existing?.tokens ?? -JOIN_COST);
    if (this.used() + growth > this.budget) return false;
    if (existing) {
      existing.candidates.push(candidate);
      existing.reasons.push(reason);
      existing.verdicts.push(verdict);
      existing.block = block;
      existing.tokens = tokens;
    } else {
      this.excerpts.set(page.id, { page, candidates: [candidate], reasons: [reason], verdicts: [verdict], block, tokens });
    }
    return true;
  }

  render(nothingFound: string | undefined): string {
    const parts = [this.header];
    if (this.rules.length > 0) parts.push(RULES_HEADING, ...this.rules.map((entry) => entry.block));
    const reference = [...this.whole.map((entry) => entry.block), ...[...this.excerpts.values()].map((entry) => entry.block)];
    if (reference.length > 0 || nothingFound) parts.push(REFERENCE_HEADING);
    if (nothingFound) parts.push(nothingFound);
    parts.push(...reference);
    return `${parts.join('\n\n')}\n`;
  }

  pages(): ContextPage[] {
    const pages: ContextPage[] = [];
    for (const entry of this.rules) pages.push({ page_id: entry.page.id, title: entry.page.meta.title, type: entry.page.meta.type, reason: 'rule', extent: 'full', tokens: entry.tokens, sections: [] });
    for (const entry of this.whole) pages.push({ page_id: entry.page.id, title: entry.page.meta.title, type: entry.page.meta.type, reason: entry.reason, extent: 'full', tokens: entry.tokens, sections: [] });
    for (const entry of this.excerpts.values()) {
      pages.push({
        page_id: entry.page.id,
        title: entry.page.meta.title,
        type: entry.page.meta.type,
        reason: entry.reasons[0]!,
        extent: 'excerpts',
        tokens: entry.tokens,
        sections: entry.candidates.map((candidate, index) => {
          const verdict = entry.verdicts[index];
          return {
            id: candidate.unit.id,
            kind: candidate.unit.kind,
            heading: candidate.unit.heading,
            reason: entry.reasons[index]!,
            score: Number(candidate.fused.toFixed(5)),
            closeness: Number(candidate.closeness.toFixed(3)),
            ranks: candidate.ranks,
            judge: verdict ? { use: verdict.use, different: verdict.different, source: verdict.source } : undefined,
          };
        }),
      });
    }
    return pages;
  }
}

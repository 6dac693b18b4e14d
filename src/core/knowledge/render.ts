/**
 * Step 8: the bundle as Markdown. Instructions, a comment naming the packs and tags, "Rules
 * (always follow)", then "Reference": full pages, then excerpts grouped by page. Each page
 * is labelled with its type, full or excerpt, and its page_id.
 */
import type { SearchUnit } from './sectionIndex';
import type { LibrarySettings, Page, Section } from './types';

/** The opening of the bundle: the team's instructions and a comment naming packs and tags. */
export function renderHeader(settings: LibrarySettings, packs: readonly string[], tags: readonly string[]): string {
  const parts = [`<!-- herald get_context · packs: ${packs.length > 0 ? packs.join(', ') : 'none'} · tags in the task: ${tags.length > 0 ? tags.join(', ') : 'none'} -->`];
  if (settings.instructions && settings.instructions.trim().length > 0) {
    parts.push(`## Instructions from the ${settings.organization ?? 'library'} team\n\n${settings.instructions.trim()}`);
  }
  return parts.join('\n\n');
}

export const RULES_HEADING = '## Rules (always follow)';
export const REFERENCE_HEADING = '## Reference';

/** A page in full, its headings moved under the bundle's own. */
export function renderFullPage(page: Page, viewer: string | undefined): string {
  return [pageHeading(page, 'full page', viewer), demoteHeadings(stripTitleHeading(page.body, page.meta.title))].join('\n\n');
}

/** Excerpts of one page: each kept section (or table rows) under its heading path, in page order. */
export function renderExcerpts(page: Page, units: readonly SearchUnit[], viewer: string | undefined): string {
  const bySection = new Map<string, SearchUnit[]>();
  for (const unit of units) bySection.set(unit.sectionId, [...(bySection.get(unit.sectionId) ?? []), unit]);
  const blocks: string[] = [pageHeading(page, 'excerpts', viewer)];
  for (const section of page.sections) {
    const kept = bySection.get(section.id);
    if (!kept) continue;
    blocks.push(renderSectionExcerpt(section, kept));
  }
  return blocks.join('\n\n');
}

function renderSectionExcerpt(section: Section, units: readonly SearchUnit[]): string {
  const heading = `#### ${section.headingPath.slice(1).join(' › ') || section.headingPath[0]}`;
  if (units.some((unit) => unit.kind === 'section')) return `${heading}\n\n${demoteHeadings(withoutHeadingLine(section.text))}`;
  // Only some rows: the table's description, its header, and those rows.
  const rowIds = new Set(units.map((unit) => unit.id));
  const rows = section.rows.filter((row) => rowIds.has(row.id));
  const lead = rows[0]!.description.split(': ').slice(1).join(': ');
  return [heading, lead, [rows[0]!.header, ...rows.map((row) => row.line)].join('\n')].filter((part) => part.length > 0).join('\n\n');
}

function pageHeading(page: Page, extent: 'full page' | 'excerpts', viewer: string | undefined): string {
  const lines = [`### ${page.meta.title}`, `_${page.meta.type} · ${extent} · page_id: ${page.id}${page.meta.private && page.meta.owner === viewer ? ' · your private note' : ''}_`];
  if (page.meta.usage_notes) lines.push(`> Usage: ${page.meta.usage_notes}`);
  if (page.meta.file) lines.push(`> Attached file: ${page.meta.file} (fetch it with get_file, page_id ${page.id})`);
  return lines.join('\n');
}

/** A fence line: up to any indentation, a run of three or more backticks or tildes. */
const FENCE_RUN = /^[ \t]*(`{3,}|~{3,})/;
/** A heading line outside a fence (up to three spaces of indentation, as Markdown reads it). */
const HEADING = /^( {0,3})(#{1,6})(?=\s|$)/;
/** A line inside a fence that reads as the bundle's own section or page heading (`##`, `###`). */
const BUNDLE_LEVEL_HEADING = /^([ \t]*)(#{2,3})(?=\s|$)/;

/**
 * Headings in page text go three levels down, so a page's `#` sits under the bundle's `###`.
 * Code in fences stays as written, except lines that would read as the bundle's own `##` or
 * `###` headings (a model reads them as headings fenced or not); they go down too, which keeps
 * them comments in the languages where `#` starts one. A fence closes only on a run of its own
 * character at least as long as the one that opened it, and a fence the text leaves open is
 * closed at its end, so it cannot run on into what the bundle puts after the page.
 */
export function demoteHeadings(text: string): string {
  let fence: string | undefined;
  const lines = text.split('\n').map((line) => {
    const fenceLine = FENCE_RUN.exec(line);
    const run = fenceLine?.[1];
    if (fence === undefined) {
      if (run !== undefined) {
        fence = run;
        return line;
      }
      const heading = HEADING.exec(line);
      return heading ? `${heading[1]!}${'#'.repeat(Math.min(6, heading[2]!.length + 3))}${line.slice(heading[0].length)}` : line;
    }
    if (run !== undefined && run[0] === fence[0] && run.length >= fence.length && line.slice(fenceLine![0].length).trim().length === 0) {
      fence = undefined;
      return line;
    }
    const heading = BUNDLE_LEVEL_HEADING.exec(line);
    return heading ? `${heading[1]!}${heading[2]!}###${line.slice(heading[0].length)}` : line;
  });
  if (fence !== undefined) lines.push(fence);
  return lines.join('\n');
}

function stripTitleHeading(body: string, title: string): string {
  const trimmed = body.replace(/^\s+/, '');
  const match = /^#\s+(.+)\n?/.exec(trimmed);
  return (match && match[1]!.trim() === title ? trimmed.slice(match[0].length) : trimmed).trim();
}

function withoutHeadingLine(text: string): string {
  return /^#{1,6}\s/.test(text) ? text.slice(text.indexOf('\n') + 1).trim() : text.trim();
}

/** The answer when nothing comes close enough: say so, ask to check with the user, name the nearest pages. */
export function renderNothingFound(nearest: readonly Page[]): string {
  const lines = ['Nothing in the library comes close enough to this task. The workspace may not cover it: check with the user rather than guess.'];
  if (nearest.length > 0) {
    lines.push('', 'The nearest pages, in case one plainly covers the task (read it with read_page):');
    for (const page of nearest) lines.push(`- ${page.meta.title} (${page.meta.type}, page_id: ${page.id})`);
  }
  return lines.join('\n');
}

/** The reference part when the task matched only rules: they are above, and nothing else matches. */
export function renderRulesCover(rules: readonly Page[]): string {
  const names = rules.map((page) => `${page.meta.title} (page_id: ${page.id})`).join(', ');
  return `The rules above cover this task (${names}); nothing else in the library adds to them.`;
}

/**
 * The topical sections of a tool kept whole. Some clients put whole procedures into one tool's
 * description under top-level Markdown headings: Claude Code's `Bash` carries "# Committing
 * changes with git" and "# Creating pull requests", 7 KB of its 12 KB, on every request of
 * every session, whether the task touches git or not. A section whose heading names a subject
 * (not "Instructions" or "Usage notes", which say how to use the tool at all) that the
 * conversation has not raised is taken out of the description and stashed; one marker line in
 * its place names the sections and gives them back byte for byte through `herald_retrieve`.
 *
 * Decided with the rest of the tools block, once per session (`tool_catalog`'s pin), so every
 * request of the session carries the same description.
 */
import type { ToolDefinition } from '../../chat/types';
import type { Stash } from '../../stash/stash';
import { topicWords } from '../toolDescriptions/topicWords';

/** One top-level section of a description: its heading line's text and where it runs. */
export interface DescriptionSection {
  readonly heading: string;
  readonly start: number;
  readonly end: number;
}

/** Heading words that say how a tool is used rather than name a subject of its own. */
const STRUCTURAL_WORDS = new Set(
  ('instruction usage note example important guideline rule tip warning overview general common other operation misc miscellaneous ' +
    'parameter option detail reference summary introduction background behavior behaviour format formatting output limitation caveat ' +
    'when how why what before after avoid prefer best practice practices').split(' ').map(root),
);

/** The top-level (`# `) sections of a description, outside fenced code; empty when it has none. */
export function topLevelSections(description: string): DescriptionSection[] {
  const sections: DescriptionSection[] = [];
  let fenced = false;
  let offset = 0;
  let open: { heading: string; start: number } | undefined;
  for (const line of description.split('\n')) {
    if (line.trimStart().startsWith('```')) fenced = !fenced;
    else if (!fenced && /^# \S/.test(line)) {
      if (open) sections.push({ ...open, end: offset });
      open = { heading: line.slice(2).trim(), start: offset };
    }
    offset += line.length + 1;
  }
  if (open) sections.push({ ...open, end: description.length });
  return sections;
}

/**
 * The headings of the sections to take out of a tool's description: topical headings of at
 * least `minChars` characters that nothing the user or the assistant wrote ties to (a word of the
 * heading, or two words only that section uses).
 */
export function untiedSections(tool: ToolDefinition, authored: ReadonlySet<string>, minChars: number): string[] {
  const description = tool.description ?? '';
  const sections = topLevelSections(description);
  if (sections.length === 0) return [];
  const said = new Set([...authored].map(root));
  const wordsBySection = sections.map((section) => new Set([...topicWords(description.slice(section.start, section.end))].map(root)));
  const head = new Set([...topicWords(description.slice(0, sections[0]!.start))].map(root));
  const untied: string[] = [];
  sections.forEach((section, index) => {
    if (section.end - section.start < minChars) return;
    const subject = headingSubject(section.heading);
    if (subject.length === 0 || subject.some((word) => said.has(word))) return;
    // Words this section alone uses: two of them in the conversation tie it as well.
    let shared = 0;
    for (const word of wordsBySection[index]!) {
      if (head.has(word) || wordsBySection.some((other, at) => at !== index && other.has(word))) continue;
      if (said.has(word) && ++shared >= 2) return;
    }
    untied.push(section.heading);
  });
  return untied;
}

/** The tool with the named sections taken out and stashed, one marker line in their place; the same tool when none is found. */
export function withSectionsElided(tool: ToolDefinition, headings: readonly string[], stash: Stash, kind: string): { tool: ToolDefinition; handle?: string } {
  const description = tool.description ?? '';
  const wanted = new Set(headings);
  const taken = topLevelSections(description).filter((section) => wanted.has(section.heading));
  if (taken.length === 0) return { tool };
  const original = taken.map((section) => description.slice(section.start, section.end)).join('');
  const names = taken.map((section) => `"${section.heading}"`).join(', ');
  const elision = stash.elide({ original, summary: `${taken.length === 1 ? 'section' : 'sections'} ${names} of this description (${original.length} characters) elided`, kind });
  let kept = '';
  let at = 0;
  for (const section of taken) {
    kept += description.slice(at, section.start);
    at = section.end;
  }
  kept += description.slice(at);
  const text = `${kept.replace(/\s+$/, '')}\n\n${elision.marker}`;
  return { tool: { ...tool, description: text }, handle: elision.handle };
}

/** The subject words of a heading: its topic words without those that only say how to use a tool. */
function headingSubject(heading: string): string[] {
  return [...topicWords(heading)].map(root).filter((word) => !STRUCTURAL_WORDS.has(word));
}

/** A coarser stem than `stem`, so a heading's "Committing" meets "commit" and "Creating" meets "create". */
function root(word: string): string {
  let out = word;
  if (out.length > 5 && out.endsWith('ing')) out = out.slice(0, -3);
  else if (out.length > 4 && out.endsWith('ed')) out = out.slice(0, -2);
  if (out.length > 4 && out.endsWith('e')) out = out.slice(0, -1);
  if (out.length > 3 && out[out.length - 1] === out[out.length - 2] && !/[aeiou]/.test(out[out.length - 1]!)) out = out.slice(0, -1);
  return out;
}

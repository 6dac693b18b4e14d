/**
 * What @herald says and sends, as text. @herald answers every question with the chat's model;
 * the library adds its rules and what matches the question when there is one, and its absence is
 * a hint after the answer, never the answer. `/context` shows the bundle, and says in the same
 * words what its references are. Pure (no `vscode`).
 */
import { REFERENCE_HEADING } from '../../core/knowledge/render';
import type { ContextResult } from '../../core/knowledge/result';
import type { SentAttachment } from './attachments';

/** The parts of a get_context result these texts read. */
export type ContextSummary = Pick<ContextResult, 'markdown' | 'pages' | 'nothingFound' | 'nearest' | 'tokens' | 'maxTokens'>;

/**
 * The library's part of the prompt, or undefined when the library has nothing for this question.
 * When nothing matched, only the rules that apply to every task are sent (the bundle's
 * "check with the user" notice is for agents planning work, not for a question being answered).
 */
export function libraryMessage(result: ContextSummary): string | undefined {
  if (result.pages.length === 0) return undefined;
  if (!result.nothingFound) return `Here is what the team's knowledge library says that is relevant to my request. Follow its rules.\n\n${result.markdown}`;
  const rules = result.markdown.split(`\n${REFERENCE_HEADING}`)[0]!.trimEnd();
  const hasRules = result.pages.some((page) => page.reason === 'rule' || page.reason === 'pinned');
  return hasRules ? `These are the team's rules, which apply to every task. Follow them.\n\n${rules}\n` : undefined;
}

/** The attachments' part of the prompt. */
export function attachmentsMessage(attachments: readonly SentAttachment[]): string | undefined {
  if (attachments.length === 0) return undefined;
  return `Files I attached:\n\n${attachments.map((attachment) => `${attachment.label}:\n\`\`\`\n${attachment.content}\n\`\`\``).join('\n\n')}`;
}

/** The line after an answer given without a library: why there was none, and how to start one. */
export function noLibraryHint(reason: string | undefined): string {
  const why = reason?.trim() || 'there is none in this workspace.';
  const how = /New Library Page/.test(why) ? '' : ' Run **Herald: New Library Page** to start one.';
  return `_Answered without a knowledge library. ${why}${how} A library in \`.herald/\` gives @herald your team's rules and reference._`;
}

/** The line after an answer: which library pages it used, or that none matched. */
export function libraryFootnote(result: ContextSummary): string {
  const used = result.pages.map((page) => `**${page.title}**`);
  if (result.nothingFound) {
    const nearest = result.nearest.length > 0 ? ` Nearest: ${result.nearest.map((page) => `**${page.title}**`).join(', ')}.` : '';
    return used.length > 0 ? `_Nothing in the library's reference matches this question; its rules were followed (${used.join(', ')}).${nearest}_` : `_Nothing in the library matches this question.${nearest}_`;
  }
  return `_From the library: ${used.join(', ')}._`;
}

/**
 * `/context <task>`: what the bundle holds, in words that agree with the references VS Code
 * lists above it ("Used N references"): every page listed is a page the bundle holds.
 */
export function contextReply(result: ContextSummary): string {
  const rules = result.pages.filter((page) => page.reason === 'rule' || page.reason === 'pinned');
  if (result.nothingFound) {
    const nearest = result.nearest.length > 0 ? ` The nearest pages: ${result.nearest.map((page) => `**${page.title}**`).join(', ')}.` : '';
    if (result.pages.length === 0) return `Nothing in the library matches this task, and it has no rules that apply to every task.${nearest}`;
    return `No reference page matches this task.${nearest} The bundle holds only ${rules.length === 1 ? 'the rule that applies' : `the ${rules.length} rules that apply`} to every task (${result.pages.length} ${result.pages.length === 1 ? 'page' : 'pages'}, ${result.tokens} of ${result.maxTokens} tokens):\n\n${result.markdown}`;
  }
  return `**${result.pages.length} ${result.pages.length === 1 ? 'page' : 'pages'}, ${result.tokens} of ${result.maxTokens} tokens**\n\n${result.markdown}`;
}

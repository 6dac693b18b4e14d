/**
 * What @herald sends of the files and selections the user attached. The user attached them on
 * purpose, so every one is sent: whole while they fit the budget, and past it the largest are
 * digested for the question (the content cleaners' digest, else the lines that answer it), with
 * what was left out stashed behind a marker, so nothing is lost: a Herald model retrieves it
 * inside the turn, and the user opens it with "Herald: Retrieve Elided Content". Pure (no
 * `vscode`): the participant reads the attachments' text and passes it in.
 */
import { cleanContent } from '../../core/content';
import { asksAboutFailures } from '../../core/relevance/diagnosticLines';
import { scoreLexically } from '../../core/relevance/lexicalScorer';
import { droppedRuns, selectLines } from '../../core/relevance/lineSelection';
import type { Stash } from '../../core/stash/stash';
import type { TokenCounter } from '../../core/tokens/tokenCounter';

/** One attachment, read to text. */
export interface AttachedReference {
  /** What the user recognises it by: a workspace path, with lines for a selection. */
  readonly label: string;
  readonly content: string;
}

/** One attachment as it is sent. */
export interface SentAttachment {
  readonly label: string;
  /** What the model gets: the whole text, or its digest with markers. */
  readonly content: string;
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  /** How a large attachment was made to fit; absent when sent whole. */
  readonly digest?: 'cleaned' | 'lines';
  /** Handles of what the digest left out (retrievable byte for byte). */
  readonly handles: readonly string[];
}

export interface PreparedAttachments {
  /** Every attachment, in the order attached. */
  readonly sent: readonly SentAttachment[];
  /** One line for the user when something was digested; undefined when everything went whole. */
  readonly note: string | undefined;
}

export interface AttachmentDependencies {
  readonly tokens: TokenCounter;
  readonly stash: Pick<Stash, 'elide'>;
}

/** Most tokens of attachments sent whole, whatever the model's window. */
export const ATTACHMENT_BUDGET_MAX = 32_000;
/** Share of the model's input window the attachments may take together. */
export const ATTACHMENT_WINDOW_SHARE = 0.5;

/** The attachments' budget for a model with this input window. */
export function attachmentBudget(maxInputTokens: number): number {
  return Math.max(2_000, Math.min(ATTACHMENT_BUDGET_MAX, Math.floor(maxInputTokens * ATTACHMENT_WINDOW_SHARE)));
}

export function prepareAttachments(question: string, references: readonly AttachedReference[], budget: number, dependencies: AttachmentDependencies): PreparedAttachments {
  const counted = references.map((reference, index) => ({ reference, index, tokens: dependencies.tokens.count(reference.content) }));
  const sent = new Array<SentAttachment>(references.length);
  // Smallest first: each takes no more than an even share of what is left, so small files always go whole.
  let remaining = budget;
  const bySize = [...counted].sort((a, b) => a.tokens - b.tokens || a.index - b.index);
  bySize.forEach((entry, position) => {
    const share = Math.floor(remaining / (bySize.length - position));
    const result = entry.tokens <= share ? whole(entry.reference, entry.tokens) : digest(question, entry.reference, entry.tokens, share, dependencies);
    sent[entry.index] = result;
    remaining = Math.max(0, remaining - result.tokensAfter);
  });
  const digested = sent.filter((attachment) => attachment.digest !== undefined);
  const note =
    digested.length === 0
      ? undefined
      : `Herald sent all ${sent.length} attachment${sent.length === 1 ? '' : 's'}; ${digested
          .map((attachment) => `\`${attachment.label}\` as a digest for your question (${attachment.tokensBefore.toLocaleString('en-US')} → ${attachment.tokensAfter.toLocaleString('en-US')} tokens)`)
          .join(', ')}. The rest is one retrieve away: ${digested.flatMap((attachment) => attachment.handles).map((handle) => `\`${handle}\``).join(', ')} (**Herald: Retrieve Elided Content**).`;
  return { sent, note };
}

function whole(reference: AttachedReference, tokens: number): SentAttachment {
  return { label: reference.label, content: reference.content, tokensBefore: tokens, tokensAfter: tokens, handles: [] };
}

/**
 * A large attachment made to fit `share` tokens. First the content cleaners' digest (logs folded
 * to their events, JSON rows for the question, HTML to text, test runs to their failures), with
 * the whole original behind one marker; when that is still too long (or the text has no
 * cleaner), the lines that answer the question, the error lines, the start and the end, each
 * run left out behind its own marker.
 */
function digest(question: string, reference: AttachedReference, tokens: number, share: number, dependencies: AttachmentDependencies): SentAttachment {
  const cleaned = cleanContent(reference.content, { question, path: reference.label });
  const handles: string[] = [];
  let text = reference.content;
  let wholeMarker = '';
  if (cleaned.changed) {
    const elision = dependencies.stash.elide({ original: reference.content, summary: `the whole of ${reference.label}, ${reference.content.split('\n').length} lines`, kind: 'attachment' });
    handles.push(elision.handle);
    wholeMarker = `\n${elision.marker}`;
    text = cleaned.text;
    const content = `${text}${wholeMarker}`;
    const after = dependencies.tokens.count(content);
    if (after <= share) return { label: reference.label, content, tokensBefore: tokens, tokensAfter: after, digest: 'cleaned', handles };
  }
  const lines = text.split('\n');
  const selection = linesWithin(question, lines, share, dependencies.tokens);
  const pieces: string[] = [];
  let cursor = 0;
  for (const [start, end] of droppedRuns(selection)) {
    pieces.push(...lines.slice(cursor, start));
    const elision = dependencies.stash.elide({ original: lines.slice(start, end).join('\n'), summary: `${end - start} lines of ${reference.label}${cleaned.changed ? "'s digest" : ''} (${start + 1}–${end}) elided`, kind: 'attachment' });
    pieces.push(elision.replacement);
    handles.push(elision.handle);
    cursor = end;
  }
  pieces.push(...lines.slice(cursor));
  const content = `${pieces.join('\n')}${wholeMarker}`;
  return { label: reference.label, content, tokensBefore: tokens, tokensAfter: dependencies.tokens.count(content), digest: cleaned.changed ? 'cleaned' : 'lines', handles };
}

/** About how many tokens one marker takes. */
const MARKER_TOKENS = 30;

/**
 * Which lines to keep so the kept text and its markers fit `share` tokens, as far as the error
 * lines and the start and end allow: the share of lines selected by score halves until it fits.
 */
function linesWithin(question: string, lines: readonly string[], share: number, tokens: TokenCounter): readonly boolean[] {
  const scores = scoreLexically(question, lines);
  const failures = asksAboutFailures(question);
  let keepRatio = Math.max(0.005, Math.min(0.9, share / Math.max(1, tokens.count(lines.join('\n')))));
  let kept: readonly boolean[] = [];
  for (let attempt = 0; attempt < 8; attempt++) {
    const contextLines = attempt === 0 ? 1 : 0;
    kept = selectLines(lines, scores, { leadingLines: 5, trailingLines: 5, contextLines, keepRatio, minKeptLines: 5, relativeScoreFloor: 0.2, minElidedRun: 3 }, failures).kept;
    const estimate = tokens.count(lines.filter((_, index) => kept[index]).join('\n')) + droppedRuns(kept).length * MARKER_TOKENS;
    if (estimate <= share) break;
    keepRatio /= 2;
  }
  return kept;
}

/**
 * The real elisions of one pipeline run, by text: which message, part and tool-result content
 * holds each replacement the strategies put in, and where. Kept up to date after every
 * strategy by aligning each rewritten text with the one before it, so no strategy has to
 * report positions; replayed history messages bring theirs from the memo.
 */
import type { ChatMessage, ChatRequest, Part } from '../chat/types';
import { alignSites, guessSites, type ElisionLookup, type ElisionSite } from '../stash/elisionSite';
import { argumentStrings } from '../chat/toolCallArguments';

/** Where a text sits in a request. */
export interface TextLocation {
  readonly messageIndex: number;
  readonly partIndex: number;
  /** Index inside a tool result's content or among a tool call's string argument values; -1 for a text part. */
  readonly contentIndex: number;
}

/** A real elision inside one message: the part (and tool-result content) and the site in its text. */
export interface MessageElisionSite extends ElisionSite {
  readonly partIndex: number;
  /** Index inside a tool result's content; -1 for a text part. */
  readonly contentIndex: number;
}

/** A real elision inside a request. */
export interface RequestElisionSite extends MessageElisionSite {
  readonly messageIndex: number;
}

/**
 * The texts a part carries that strategies rewrite: a text part's text, a tool result's text
 * contents, a tool call's string argument values (by their order in the arguments).
 */
export function textsOfPart(part: Part): { contentIndex: number; text: string }[] {
  if (part.type === 'text') return [{ contentIndex: -1, text: part.text }];
  if (part.type === 'tool_call') return argumentStrings(part.arguments).map((text, contentIndex) => ({ contentIndex, text }));
  if (part.type !== 'tool_result') return [];
  const texts: { contentIndex: number; text: string }[] = [];
  part.content.forEach((inner, contentIndex) => {
    if (inner.type === 'text') texts.push({ contentIndex, text: inner.text });
  });
  return texts;
}

/** The text at a location, or undefined when there is none. */
export function textAt(request: ChatRequest, location: TextLocation): string | undefined {
  const part = request.messages[location.messageIndex]?.parts[location.partIndex];
  return part ? textsOfPart(part).find((text) => text.contentIndex === location.contentIndex)?.text : undefined;
}

function keyOf(partIndex: number, contentIndex: number): string {
  return `${partIndex}.${contentIndex}`;
}

export class ElisionTracker {
  /** Message index → text key (`part.content`) → that text's sites. */
  private readonly byMessage = new Map<number, Map<string, ElisionSite[]>>();

  /**
   * @param lookup the stash entries of this process's elisions, read synchronously.
   * @param onGuessed called for a text whose rewrite could not be aligned; its sites are then
   *   guessed from the text alone (what expansion by text would do).
   */
  constructor(private readonly lookup: ElisionLookup, private readonly onGuessed: (location: TextLocation) => void) {}

  /** Sets a message's sites as an earlier turn recorded them (a replayed history message). */
  seed(messageIndex: number, sites: readonly MessageElisionSite[]): void {
    const texts = new Map<string, ElisionSite[]>();
    for (const { partIndex, contentIndex, ...site } of sites) {
      const key = keyOf(partIndex, contentIndex);
      texts.set(key, [...(texts.get(key) ?? []), site]);
    }
    if (texts.size > 0) this.byMessage.set(messageIndex, texts);
  }

  /** Brings the sites up to date with a strategy's rewrite of `before` into `after`. */
  update(before: ChatRequest, after: ChatRequest): void {
    if (before === after) return;
    after.messages.forEach((message, messageIndex) => {
      const previous = before.messages[messageIndex];
      if (previous === message || !previous) return;
      this.updateMessage(messageIndex, previous, message);
    });
  }

  /** Forgets everything (the request went out as it arrived). */
  clear(): void {
    this.byMessage.clear();
  }

  /** One message's sites, for the memo. */
  messageSites(messageIndex: number): MessageElisionSite[] {
    const sites: MessageElisionSite[] = [];
    for (const [key, textSites] of this.byMessage.get(messageIndex) ?? []) {
      const [partIndex, contentIndex] = key.split('.').map(Number) as [number, number];
      for (const site of textSites) sites.push({ partIndex, contentIndex, ...site });
    }
    return sites.sort((a, b) => a.partIndex - b.partIndex || a.contentIndex - b.contentIndex || a.start - b.start);
  }

  /** Every site of the request, in reading order. */
  all(): RequestElisionSite[] {
    return [...this.byMessage.keys()].sort((a, b) => a - b).flatMap((messageIndex) => this.messageSites(messageIndex).map((site) => ({ messageIndex, ...site })));
  }

  private updateMessage(messageIndex: number, before: ChatMessage, after: ChatMessage): void {
    const texts = this.byMessage.get(messageIndex) ?? new Map<string, ElisionSite[]>();
    after.parts.forEach((part, partIndex) => {
      const previous = before.parts[partIndex];
      if (previous === part || !previous) return;
      const previousTexts = new Map(textsOfPart(previous).map((text) => [text.contentIndex, text.text]));
      const currentTexts = textsOfPart(part);
      // A text the rewrite took away takes its sites with it.
      for (const contentIndex of previousTexts.keys()) if (!currentTexts.some((text) => text.contentIndex === contentIndex)) texts.delete(keyOf(partIndex, contentIndex));
      for (const { contentIndex, text } of currentTexts) {
        const old = previousTexts.get(contentIndex) ?? '';
        if (old === text) continue;
        const key = keyOf(partIndex, contentIndex);
        // A part that had no text (an image vision_ocr turned into its text) has no quote to confuse:
        // its markers are the strategy's own.
        if (previousTexts.size === 0) {
          const sites = guessSites(text, this.lookup);
          if (sites.length > 0) texts.set(key, sites);
          continue;
        }
        let sites = alignSites(old, texts.get(key) ?? [], text, this.lookup);
        if (!sites) {
          sites = guessSites(text, this.lookup);
          // A digest elided whole again stashes the output it digested: one new site over the whole text, nothing to align.
          const whole = sites.length === 1 && sites[0]!.start === 0 && sites[0]!.length === text.length;
          if (!whole) this.onGuessed({ messageIndex, partIndex, contentIndex });
        }
        if (sites.length > 0) texts.set(key, sites);
        else texts.delete(key);
      }
    });
    if (texts.size > 0) this.byMessage.set(messageIndex, texts);
    else this.byMessage.delete(messageIndex);
  }
}

/** The sites of a text, or undefined when they are not known (expand it by text alone). */
export type SitesOf = (location: TextLocation, text: string) => readonly ElisionSite[] | undefined;

/** A {@link SitesOf} over a pipeline result's sites: every text of that request is known. */
export function sitesFrom(sites: readonly RequestElisionSite[]): SitesOf {
  const byText = new Map<string, ElisionSite[]>();
  for (const { messageIndex, partIndex, contentIndex, ...site } of sites) {
    const key = `${messageIndex}.${keyOf(partIndex, contentIndex)}`;
    byText.set(key, [...(byText.get(key) ?? []), site]);
  }
  return (location) => byText.get(`${location.messageIndex}.${keyOf(location.partIndex, location.contentIndex)}`) ?? [];
}

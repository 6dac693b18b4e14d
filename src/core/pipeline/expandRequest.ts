/** A whole optimized request expanded back: every text with its real elisions replaced by the originals. */
import type { ChatRequest, Part, ResultContentPart } from '../chat/types';
import type { Stash } from '../stash/stash';
import { argumentStrings, withArgumentStrings } from '../chat/toolCallArguments';
import type { SitesOf, TextLocation } from './elisionSites';

/**
 * Every text part, tool-result text and tool-call string argument of `request` expanded: at the sites `sitesOf` gives
 * for it (only the real elisions; a quoted copy of a real marker stays), or, where it gives
 * undefined or no `sitesOf` is passed, by text alone ({@link Stash.expandText}: a quoted copy
 * of a real marker is expanded too). `onTextOnly` hears each text that expansion by text alone
 * changed (a caller may warn that a copy of a real marker could have been expanded there).
 */
export async function expandRequest(request: ChatRequest, stash: Stash, sitesOf?: SitesOf, onTextOnly?: (location: TextLocation) => void): Promise<ChatRequest> {
  const expand = async (location: TextLocation, text: string): Promise<string> => {
    const sites = sitesOf?.(location, text);
    if (sites) return stash.expandAt(text, sites);
    const expanded = await stash.expandText(text);
    if (expanded !== text) onTextOnly?.(location);
    return expanded;
  };
  const expandPart = async (messageIndex: number, part: Part, partIndex: number): Promise<Part> => {
    if (part.type === 'text') {
      const text = await expand({ messageIndex, partIndex, contentIndex: -1 }, part.text);
      return text === part.text ? part : { ...part, text };
    }
    if (part.type === 'tool_call') {
      const values = argumentStrings(part.arguments);
      const expanded = await Promise.all(values.map((value, contentIndex) => expand({ messageIndex, partIndex, contentIndex }, value)));
      return expanded.every((value, index) => value === values[index]) ? part : { ...part, arguments: withArgumentStrings(part.arguments, expanded) };
    }
    if (part.type !== 'tool_result') return part;
    const content = await Promise.all(
      part.content.map(async (inner: ResultContentPart, contentIndex): Promise<ResultContentPart> => {
        if (inner.type !== 'text') return inner;
        const text = await expand({ messageIndex, partIndex, contentIndex }, inner.text);
        return text === inner.text ? inner : { ...inner, text };
      }),
    );
    return { ...part, content };
  };
  const messages = await Promise.all(request.messages.map(async (message, messageIndex) => ({ ...message, parts: await Promise.all(message.parts.map((part, partIndex) => expandPart(messageIndex, part, partIndex))) })));
  return { ...request, messages };
}

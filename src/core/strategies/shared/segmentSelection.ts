/**
 * Which tool-output segments a strategy may rewrite: those in the history this request is
 * deciding ([frozenCount, freshStart)), optionally the fresh input too, never one already
 * behind a Herald marker (retrieval stays one hop deep), never the answer of a retrieval, never
 * a result the client itself points back to (see `clientReferences.ts`).
 * "Behind a marker" means a marker the stash issued: a look-alike quoted or forged in tool
 * output shields nothing.
 */
import { findToolOutputs, type ToolOutputSegment } from '../../chat/toolOutput';
import type { ChatRequest } from '../../chat/types';
import type { StrategyContext } from '../../pipeline/types';
import { findMarkers, HANDLE_PATTERN } from '../../stash/marker';
import type { Stash } from '../../stash/stash';
import { protectedSegmentKeys } from './clientReferences';

/** Tool names whose results hand back an elided original (the host's retrieve tool). */
const RETRIEVE_TOOL = /(^|_)retrieve$/i;

/** Which part of the request to offer. */
export interface SelectionOptions {
  /** Also offer the current turn's fresh input (only for strategies with `touchesFresh`). */
  readonly includeFresh?: boolean;
  /**
   * Also offer history outputs digested on arrival (or earlier in this run) whose original the
   * request still carries, with that original as `arrived`: masking one whole stashes the original
   * itself, so retrieval stays one hop deep.
   */
  readonly includeDigested?: boolean;
}

/** A segment a strategy may rewrite; `arrived` is its original text when it is already a digest of it. */
export type EditableSegment = ToolOutputSegment & { readonly arrived?: string };

/** The segments a strategy may rewrite in this request, in request order. */
export function editableSegments(
  request: ChatRequest,
  context: Pick<StrategyContext, 'frozenCount' | 'freshStart' | 'stash'> & Partial<Pick<StrategyContext, 'original'>>,
  options: SelectionOptions = {},
): EditableSegment[] {
  const end = options.includeFresh ? request.messages.length : context.freshStart;
  const originals = options.includeDigested && context.original ? originalSegmentTexts({ original: context.original }) : undefined;
  const editable: EditableSegment[] = [];
  const referenced = protectedSegmentKeys(request);
  for (const segment of findToolOutputs(request)) {
    if (segment.messageIndex < context.frozenCount || segment.messageIndex >= end || isRetrieval(segment) || referenced.has(segment.key)) continue;
    if (!hasMarker(segment.text, context.stash)) {
      editable.push(segment);
      continue;
    }
    // A whole output that is one digest of the original at the same place: a single marker whose
    // stashed original is that output and whose replacement is the whole text (never a marker the
    // output itself carried, never an output another strategy cut in pieces).
    const original = originals?.get(segment.key);
    if (original === undefined || segment.messageIndex >= context.freshStart || original === segment.text || hasMarker(original, context.stash)) continue;
    const markers = findMarkers(segment.text);
    const entry = markers.length === 1 ? context.stash.issuedEntry(markers[0]!.handle) : undefined;
    if (entry?.original === original && entry.replacements.includes(segment.text)) editable.push({ ...segment, arrived: original });
  }
  return editable;
}

/** True when the text already carries a marker of one of this stash's own elisions. */
export function hasMarker(text: string, stash: Pick<Stash, 'hasIssuedMarker'>): boolean {
  return stash.hasIssuedMarker(text);
}

/**
 * True for output that answers a retrieval: the model asked for an original back, so
 * collapsing it again would loop it into the marker it resolved.
 */
export function isRetrieval(segment: Pick<ToolOutputSegment, 'toolName' | 'command'>): boolean {
  if (segment.toolName !== undefined && RETRIEVE_TOOL.test(segment.toolName)) return true;
  return segment.command !== undefined && HANDLE_PATTERN.test(segment.command) && /\bretrieve\b/i.test(segment.command);
}

/** Segments of the request as it arrived, by key, to tell whether a segment is still verbatim. */
export function originalSegmentTexts(context: Pick<StrategyContext, 'original'>): Map<string, string> {
  return new Map(findToolOutputs(context.original).map((segment) => [segment.key, segment.text]));
}

/** Markup of an agent's observation message (mini-swe-agent and the like), not a person's words. */
const OBSERVATION_MARKUP = /<returncode>|<(?:output|output_head|output_tail|stdout|stderr)>/;

/**
 * True for bulk a person pasted into their own message (a block under their question), as opposed
 * to a tool's result or an agent's observation sent as a user message.
 */
export function isUserPaste(request: ChatRequest, segment: Pick<ToolOutputSegment, 'source' | 'messageIndex'>): boolean {
  if (segment.source !== 'pasted') return false;
  const message = request.messages[segment.messageIndex];
  return message?.role === 'user' && !message.parts.some((part) => part.type === 'text' && OBSERVATION_MARKUP.test(part.text));
}

/**
 * content_census (signal): counts the tool-output segments of a request by shape class
 * (json_array, unified_diff, build_test_log, …) to size future strategies before they are
 * built. It reads only each segment's head and records counts: no content, file names, tool
 * names, arguments, JSON keys or handles. Per-session totals roll up in the session state.
 */
import type { z } from 'zod';
import { findToolOutputs, type ToolOutputSegment } from '../chat/toolOutput';
import type { ChatRequest } from '../chat/types';
import type { Strategy, StrategyContext, StrategyResult } from '../pipeline/types';
import { sha256 } from '../pipeline/hash';
import { numberOption } from './shared/optionReads';
import { classifyShape, type ShapeClass } from './signals/shapeClass';
import { optionDefaults } from '../pipeline/optionSchema';
import { CONTENT_CENSUS_OPTIONS } from './options/contentCensusOptions';

export const CONTENT_CENSUS_ID = 'content_census';

/** Options of content_census, as its schema in `options/` declares them (type, default, bounds, description). */
export type ContentCensusOptions = Readonly<z.output<typeof CONTENT_CENSUS_OPTIONS>>;

export const CONTENT_CENSUS_DEFAULTS: ContentCensusOptions = optionDefaults(CONTENT_CENSUS_OPTIONS);

const TOTALS_KEY = 'totals';

/** How many outputs' classes are remembered: history is re-sent every turn, so each is classified once. */
const MAX_REMEMBERED = 8_192;

/**
 * Classes by head size: short outputs keyed by their own text (a message replayed from the memo
 * brings back the very string, whose hash the engine keeps, so the lookup costs nearly nothing),
 * longer ones by a key that stays small. Two maps, so a text can never meet another kind of key.
 */
const remembered = new Map<number, { readonly short: Map<string, ShapeClass>; readonly long: Map<string, ShapeClass> }>();

/** Outputs longer than this are remembered by a digest or their head, so the memory stays small. */
const KEY_CHARS = 4_096;

/**
 * {@link classifyShape}, remembered per text and head size. A long output is keyed by its head
 * alone when that is all the class depends on (it does not open like JSON, which is parsed
 * whole), so re-sent history is not hashed again every turn.
 */
function shapeOf(text: string, headChars: number): ShapeClass {
  let maps = remembered.get(headChars);
  if (!maps) {
    maps = { short: new Map(), long: new Map() };
    remembered.set(headChars, maps);
  }
  const short = text.length <= KEY_CHARS;
  const map = short ? maps.short : maps.long;
  // A letter says what a long key holds (a digest, a head), so the two kinds cannot meet.
  const key = short ? text : opensLikeJson(text, headChars) ? `d${text.length}\u0000${sha256(text)}` : `h${text.slice(0, headChars)}`;
  const known = map.get(key);
  if (known !== undefined) return known;
  const shape = classifyShape(text, headChars);
  map.set(key, shape);
  if (map.size > MAX_REMEMBERED) map.delete(map.keys().next().value as string);
  return shape;
}

/** Classes by the part object a segment was found in (a message replayed from the memo brings back the same parts). */
const byPart = new WeakMap<object, { readonly headChars: number; readonly start: number; readonly end: number; readonly shape: ShapeClass }[]>();

/** The class of a segment: a lookup when its part was classified on an earlier turn. */
function segmentShape(request: ChatRequest, segment: ToolOutputSegment, headChars: number): ShapeClass {
  const part = request.messages[segment.messageIndex]?.parts[segment.partIndex];
  const holder = part?.type === 'tool_result' && segment.contentIndex >= 0 ? part.content[segment.contentIndex] : part;
  if (holder === undefined) return shapeOf(segment.text, headChars);
  const known = byPart.get(holder);
  const found = known?.find((entry) => entry.headChars === headChars && entry.start === segment.start && entry.end === segment.end);
  if (found) return found.shape;
  const shape = shapeOf(segment.text, headChars);
  if (known) known.push({ headChars, start: segment.start, end: segment.end, shape });
  else byPart.set(holder, [{ headChars, start: segment.start, end: segment.end, shape }]);
  return shape;
}

/** Whether {@link classifyShape} reads the whole text: its head, as it trims it, opens with `[` or `{`. */
function opensLikeJson(text: string, headChars: number): boolean {
  const trimmed = text.slice(0, headChars).replace(/\x1b\[[0-9;]*m/g, '').trim();
  return trimmed.startsWith('[') || trimmed.startsWith('{');
}

export function createContentCensus(): Strategy {
  return {
    id: CONTENT_CENSUS_ID,
    defaultEnabled: true,
    kind: 'signal',
    defaults: CONTENT_CENSUS_DEFAULTS,
    optionSchema: CONTENT_CENSUS_OPTIONS,
    apply(request: ChatRequest, context: StrategyContext): StrategyResult {
      const headChars = numberOption(context.options, CONTENT_CENSUS_ID, 'headChars', 1);
      const shapes = findToolOutputs(request).map((segment) => segmentShape(request, segment, headChars));
      const counts = countShapes(shapes);
      // The same history is re-sent every turn: only segments past those already counted join the session totals.
      const counted = Math.min(context.state.get<number>('segments') ?? 0, shapes.length);
      const totals = { ...(context.state.get<Record<string, number>>(TOTALS_KEY) ?? {}) };
      for (const shape of shapes.slice(counted)) totals[shape] = (totals[shape] ?? 0) + 1;
      context.state.set(TOTALS_KEY, totals);
      context.state.set('segments', shapes.length);
      const details: Record<string, number> = { segments: shapes.length };
      for (const [shape, count] of Object.entries(counts)) details[`class_${shape}`] = count;
      for (const [shape, count] of Object.entries(totals)) details[`session_${shape}`] = count;
      return { request, action: 'content-counted', reason: `${shapes.length} tool-output segments in ${Object.keys(counts).length} shape classes`, details };
    },
  };
}

/** Segment counts per shape class in one request. */
export function censusOf(request: ChatRequest, headChars = 2000): Partial<Record<ShapeClass, number>> {
  return countShapes(findToolOutputs(request).map((segment) => classifyShape(segment.text, headChars)));
}

function countShapes(shapes: readonly ShapeClass[]): Partial<Record<ShapeClass, number>> {
  const counts: Partial<Record<ShapeClass, number>> = {};
  for (const shape of shapes) counts[shape] = (counts[shape] ?? 0) + 1;
  return counts;
}

/**
 * content_census (signal): counts the tool-output segments of a request by shape class
 * (json_array, unified_diff, build_test_log, …) to size future strategies before they are
 * built. It reads only each segment's head and records counts: no content, file names, tool
 * names, arguments, JSON keys or handles. Per-session totals roll up in the session state.
 */
import { findToolOutputs } from '../chat/toolOutput';
import type { ChatRequest } from '../chat/types';
import type { Strategy, StrategyContext, StrategyResult } from '../pipeline/types';
import { sha256 } from '../pipeline/hash';
import { numberOption } from './shared/optionReads';
import { classifyShape, type ShapeClass } from './signals/shapeClass';
import { optionDefaults } from '../pipeline/optionSchema';
import { CONTENT_CENSUS_OPTIONS } from './options/contentCensusOptions';

export const CONTENT_CENSUS_ID = 'content_census';

/** Options of content_census. */
export type ContentCensusOptions = {
  /** Characters of each segment's head that are classified. Default 2000. */
  readonly headChars: number;
};

export const CONTENT_CENSUS_DEFAULTS: ContentCensusOptions = optionDefaults(CONTENT_CENSUS_OPTIONS);

const TOTALS_KEY = 'totals';

/** How many outputs' classes are remembered: history is re-sent every turn, so each is classified once. */
const MAX_REMEMBERED = 8_192;
const remembered = new Map<string, ShapeClass>();

/** Outputs longer than this are remembered by a digest, so the memory stays small. */
const KEY_CHARS = 4_096;

/** {@link classifyShape}, remembered per text and head size. */
function shapeOf(text: string, headChars: number): ShapeClass {
  const key = `${headChars}\u0000${text.length > KEY_CHARS ? `${text.length}\u0000${sha256(text)}` : text}`;
  const known = remembered.get(key);
  if (known !== undefined) return known;
  const shape = classifyShape(text, headChars);
  remembered.set(key, shape);
  if (remembered.size > MAX_REMEMBERED) remembered.delete(remembered.keys().next().value as string);
  return shape;
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
      const shapes = findToolOutputs(request).map((segment) => shapeOf(segment.text, headChars));
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

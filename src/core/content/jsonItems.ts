/**
 * A retriever's (or search API's) JSON answer read as a list of items: a top-level array of
 * passages (objects with a text, content, chunk or snippet of some length), or an object whose one
 * array of passages holds the results (`results`, `documents`, `chunks`, `hits`…). Series, rows and
 * records without a passage are not ranked by words: their cleaner keeps them by shape. Each element's span in the text is found by one scan of the text (strings
 * and nesting tracked), so the elements can be ranked and cut as items while the bytes around
 * them stay as they were; an item's header is its identifying fields on one line (id, path, title,
 * score), the structure an answer cites.
 */

export interface JsonItemList {
  /** Where each element starts; an element runs to the next one's start (its comma and layout with it). */
  readonly starts: readonly number[];
  /** Where the last element ends (the array's closing bracket and what follows are not part of it). */
  readonly end: number;
}

/** An array needs this many object elements to be read as a list of items. */
const MIN_ITEMS = 5;
/** Fields that hold an item's text: a chunk, a passage, a snippet. */
const TEXT_FIELDS = ['text', 'content', 'chunk', 'snippet', 'body', 'passage', 'page_content', 'document', 'summary'];
/** Shortest text that makes an element a passage to rank by its words (a metric series or a status row is not one). */
const MIN_TEXT_CHARS = 80;

/** An object element whose text a question's words can rank: it carries a passage. */
function isPassage(item: unknown): boolean {
  if (item === null || typeof item !== 'object' || Array.isArray(item)) return false;
  const record = item as Record<string, unknown>;
  return TEXT_FIELDS.some((field) => typeof record[field] === 'string' && (record[field] as string).length >= MIN_TEXT_CHARS);
}
/** Fields that identify an item, in the order a header shows them. */
const HEADER_FIELDS = ['id', 'chunk_id', 'doc_id', 'document_id', 'path', 'file', 'source', 'url', 'title', 'name', 'score', 'similarity', 'distance', 'rank'];

/** The element spans of the text's list of objects, when it is a JSON document holding one. */
export function jsonItemList(text: string): JsonItemList | undefined {
  const trimmed = text.trimStart();
  if (!/^[[{]/.test(trimmed)) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  let key: string | undefined;
  if (!Array.isArray(value)) {
    if (value === null || typeof value !== 'object') return undefined;
    const arrays = Object.entries(value as Record<string, unknown>).filter(([, field]) => Array.isArray(field) && field.length >= MIN_ITEMS && field.every(isPassage));
    if (arrays.length !== 1) return undefined;
    key = arrays[0]![0];
  } else if (value.length < MIN_ITEMS || !value.every(isPassage)) return undefined;
  return scanElements(text, key);
}

/**
 * One pass over the text: the array at the top (or under `key` at depth one), and the start of
 * each of its elements.
 */
function scanElements(text: string, key: string | undefined): JsonItemList | undefined {
  let depth = 0;
  let inString = false;
  let stringStart = -1;
  let lastString = '';
  let arrayDepth = -1;
  const starts: number[] = [];
  let expectElement = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!;
    if (inString) {
      if (char === '\\') index++;
      else if (char === '"') {
        inString = false;
        lastString = text.slice(stringStart + 1, index);
      }
      continue;
    }
    if (char === '"') {
      inString = true;
      stringStart = index;
      continue;
    }
    if (char === '[' || char === '{') {
      if (arrayDepth !== -1 && depth === arrayDepth && expectElement) {
        starts.push(index);
        expectElement = false;
      }
      depth++;
      if (char === '[' && arrayDepth === -1 && ((key === undefined && depth === 1) || (key !== undefined && depth === 2 && lastString === key))) {
        arrayDepth = depth;
        expectElement = true;
      }
      continue;
    }
    if (char === ']' || char === '}') {
      if (arrayDepth !== -1 && depth === arrayDepth && char === ']') return starts.length >= MIN_ITEMS ? { starts, end: lastClose(text, index) } : undefined;
      depth--;
      continue;
    }
    if (char === ',' && arrayDepth !== -1 && depth === arrayDepth) expectElement = true;
  }
  return undefined;
}

/** The end of the last element: just after its closing brace, before the layout and the array's bracket. */
function lastClose(text: string, bracket: number): number {
  let end = bracket;
  while (end > 0 && /\s/.test(text[end - 1]!)) end--;
  return end;
}

/** An item's identifying fields on one line (`{"id": "kb-0463#0", "path": "kb/…", "score": 0.81}`), undefined when it has none. */
export function jsonItemHeader(item: string): string | undefined {
  let value: unknown;
  try {
    value = JSON.parse(item.replace(/,\s*$/, ''));
  } catch {
    return undefined;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const record = value as Record<string, unknown>;
  const fields = HEADER_FIELDS.filter((field) => typeof record[field] === 'string' || typeof record[field] === 'number').map((field) => `${JSON.stringify(field)}: ${JSON.stringify(typeof record[field] === 'string' ? (record[field] as string).slice(0, 160) : record[field])}`);
  return fields.length === 0 ? undefined : `{${fields.join(', ')}}`;
}

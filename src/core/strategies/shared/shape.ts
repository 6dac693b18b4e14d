/**
 * A one-line description of a text's shape, for markers that stand in for a whole output:
 * JSON structure (keys, array lengths, the keys of array items) or lines and characters.
 */

const MAX_KEYS = 12;

/** `JSON {query, rows: array(5000) of {id, ts}}` or `text of 2000 lines`. */
export function describeShape(text: string): string {
  const trimmed = text.trim();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      return `JSON ${describeValue(JSON.parse(trimmed) as unknown, 0)}`;
    } catch {
      // Not JSON after all (a log line starting with a bracket): described as text below.
    }
  }
  return `text of ${lineCount(text)} lines`;
}

function describeValue(value: unknown, depth: number): string {
  if (Array.isArray(value)) {
    const first = value.find((item) => item !== null && item !== undefined);
    return `array(${value.length})${first !== undefined && depth < 2 ? ` of ${describeValue(first, depth + 1)}` : ''}`;
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    if (depth >= 3) return `object{${entries.length} keys}`;
    const shown = entries.slice(0, MAX_KEYS).map(([key, inner]) => (Array.isArray(inner) || (inner !== null && typeof inner === 'object') ? `${key}: ${describeValue(inner, depth + 1)}` : key));
    return `{${shown.join(', ')}${entries.length > MAX_KEYS ? `, … ${entries.length - MAX_KEYS} more keys` : ''}}`;
  }
  return value === null ? 'null' : typeof value;
}

function lineCount(text: string): number {
  let lines = text.length === 0 ? 0 : 1;
  for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) lines++;
  return text.endsWith('\n') ? lines - 1 : lines;
}

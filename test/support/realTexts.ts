/**
 * Every real text in ../shared/data, for checks that must hold on whatever a request may carry
 * (the token counter's exactness): each string value of every JSON and JSON-lines file (messages,
 * tool output, tool schemas, API bodies), each JSON file's own text, and every other text file
 * (logs, test reports, web pages, essays, transcripts, code lists) whole, or in pieces of at most
 * `PIECE_CHARS` cut at line ends. Distinct texts, in a fixed order.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SHARED_DATA } from './sharedData';

const PIECE_CHARS = 256 * 1024;
const BINARY = /\.(?:png|jpe?g|gif|webp|ico|pdf|gz|zip|wasm|onnx|bin|bz2|xz|tar)$/i;

function filesUnder(folder: string): string[] {
  const found: string[] = [];
  for (const entry of fs.readdirSync(folder, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const file = path.join(folder, entry.name);
    if (entry.isDirectory()) found.push(...filesUnder(file));
    else if (entry.isFile() && !BINARY.test(entry.name)) found.push(file);
  }
  return found;
}

function stringsIn(value: unknown, into: Set<string>): void {
  if (typeof value === 'string') {
    if (value.length > 0) into.add(value);
  } else if (Array.isArray(value)) {
    for (const item of value) stringsIn(item, into);
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      into.add(key);
      stringsIn(item, into);
    }
  }
}

function addInPieces(text: string, into: Set<string>): void {
  if (text.length <= PIECE_CHARS) {
    if (text.length > 0) into.add(text);
    return;
  }
  let start = 0;
  while (start < text.length) {
    let end = Math.min(text.length, start + PIECE_CHARS);
    const lineEnd = text.lastIndexOf('\n', end);
    if (end < text.length && lineEnd > start) end = lineEnd + 1;
    into.add(text.slice(start, end));
    start = end;
  }
}

/** The real texts, each source folder (`trajectories`, `clients`, `logs`…) in turn. */
export function realTexts(folders?: readonly string[]): { folder: string; texts: string[] }[] {
  const names = folders ?? fs.readdirSync(SHARED_DATA, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name).sort();
  return names.map((folder) => {
    const texts = new Set<string>();
    for (const file of filesUnder(path.join(SHARED_DATA, folder))) {
      const text = fs.readFileSync(file, 'utf8');
      if (file.endsWith('.json')) {
        try {
          stringsIn(JSON.parse(text), texts);
        } catch {
          // Not JSON after all: counted as text below.
        }
      } else if (file.endsWith('.jsonl')) {
        for (const line of text.split('\n')) {
          try {
            if (line.trim() !== '') stringsIn(JSON.parse(line), texts);
          } catch {
            // A torn last line: its text is still in the file's pieces.
          }
        }
      }
      addInPieces(text, texts);
    }
    return { folder, texts: [...texts] };
  });
}

/**
 * Rows of a table are units (the product description's step 7): a row is a few facts about one
 * thing, a plan, a region, a product. When the task names one of a table's things, the rows
 * about the others are not for this task, with the judge and without it, and the table never
 * comes whole for one row's facts.
 *
 * A table's names come from its own columns: the first column (what each row is about) and
 * any column whose header says it holds a kind of name (plan, region, product, …); a cell is
 * a name when it has a capital letter and does not start with a number. A name is found in the task as a phrase; a one-word name that is also an everyday word ("Scale",
 * "Growth") must be written as the table writes it, or next to its column's header word
 * ("growth plan"), so "how do we scale onboarding" does not pick the Scale plan.
 */
import type { Library } from './library';
import { containsPhrase } from './names';
import type { TableRow } from './types';

/** Headers of columns that hold names of things (besides the first column). */
const NAME_HEADER = /\b(plan|plans|tier|edition|package|region|country|market|currency|product|add-on|addon|module|sku|segment|name)\b/i;

/** Cells that name nothing. */
const EMPTY_CELL = /^(|-+|—|–|n\/a|none|custom|not offered|yes|no|included|all)$/i;

/** What the task's names do to a library's table rows. */
export interface RowNaming {
  /** Rows about a thing of a kind the task names, but not the one it names: dropped. */
  readonly otherRows: ReadonlySet<string>;
  /** Rows about a thing the task names: kept as named sections are. */
  readonly namedRows: ReadonlySet<string>;
}

interface TableColumns {
  /** Per name column: its header and each row's value (row id → cell). */
  readonly columns: readonly { readonly header: string; readonly values: ReadonlyMap<string, string> }[];
}

const TABLES = new WeakMap<Library, Map<string, TableColumns>>();

/** The cells of a Markdown table line. */
export function tableCells(line: string): string[] {
  return line.trim().replace(/^\|/, '').replace(/\|$/, '').split('|').map((cell) => cell.trim());
}

/** The name columns of each table (keyed by section id and header line), worked out once per library. */
function tablesOf(library: Library): Map<string, TableColumns> {
  let tables = TABLES.get(library);
  if (tables) return tables;
  tables = new Map();
  const groups = new Map<string, TableRow[]>();
  for (const page of library.pages) {
    for (const section of page.sections) {
      for (const row of section.rows) {
        const key = `${row.sectionId}\u0000${row.header}`;
        const group = groups.get(key) ?? [];
        group.push(row);
        groups.set(key, group);
      }
    }
  }
  for (const [key, rows] of groups) {
    const headers = tableCells(rows[0]!.header.split('\n')[0]!);
    const columns: { header: string; values: Map<string, string> }[] = [];
    headers.forEach((header, column) => {
      if (column !== 0 && !NAME_HEADER.test(header)) return;
      const values = new Map<string, string>();
      for (const row of rows) {
        const cell = (tableCells(row.line)[column] ?? '').replace(/\*\*|`/g, '').trim();
        // A number or an amount is a fact, not a name; so is a lower-case word (a term, not a thing's name).
        if (EMPTY_CELL.test(cell) || !/\p{Lu}/u.test(cell) || /^[^\p{L}]*\d/u.test(cell) || cell.split(/\s+/).length > 6) continue;
        values.set(row.id, cell);
      }
      // A column with one thing in every row (or nothing) tells rows apart by nothing.
      if (new Set(values.values()).size >= 2) columns.push({ header, values });
    });
    tables.set(key, { columns });
  }
  TABLES.set(library, tables);
  return tables;
}

/** Whether the task names this cell value (see the file comment for one-word names). */
export function taskNames(task: string, value: string, header: string): boolean {
  if (value.includes(' ') || /[^\p{L}]/u.test(value)) return containsPhrase(task, value);
  // A one-word capitalized name: as written, or next to its header's word ("growth plan", "plan growth").
  if (new RegExp(`(^|[^\\p{L}\\p{N}])${escape(value)}($|[^\\p{L}\\p{N}])`, 'u').test(task)) return true;
  const headerWord = header.toLowerCase().split(/\s+/).find((word) => NAME_HEADER.test(word));
  if (!headerWord) return false;
  const lower = task.toLowerCase();
  const name = value.toLowerCase();
  const singular = headerWord.replace(/s$/, '');
  return [`${name} ${singular}`, `${name} ${headerWord}`, `${singular} ${name}`].some((phrase) => containsPhrase(lower, phrase));
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Which rows the task's names keep and drop. */
export function rowNaming(library: Library, task: string): RowNaming {
  const otherRows = new Set<string>();
  const namedRows = new Set<string>();
  for (const table of tablesOf(library).values()) {
    for (const column of table.columns) {
      const named = new Set([...new Set(column.values.values())].filter((value) => taskNames(task, value, column.header)));
      if (named.size === 0) continue;
      for (const [rowId, value] of column.values) {
        if (named.has(value)) namedRows.add(rowId);
        else otherRows.add(rowId);
      }
    }
  }
  // A row named in one column and other in another (the Growth row of another region) is other.
  for (const rowId of otherRows) namedRows.delete(rowId);
  return { otherRows, namedRows };
}

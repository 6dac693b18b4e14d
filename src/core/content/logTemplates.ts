/**
 * Log templates: the event a line reports, with what varies from one occurrence to the next
 * pulled out. Bookkeeping (times, pids, ports, durations, sizes, long ids, decimal readings) is
 * masked and forgotten; every other token with a digit in it (an address, a node, a block, a
 * domain) is a slot whose values are counted (a short numbered name such as `eth0` is not), so a folded template can say which values it had
 * (`from 183.62.140.253 ×139, …`). A status code (a three-digit number from 100 to 599) is part of
 * the event, never a slot: a 500 and a 200 are different events.
 */
import { templateBookkeeping } from './bookkeeping';
import { MAX_PATTERN_LINE_CHARS } from './limits';

/** One line's template: its key, and the value and label of each slot in order. */
export interface LineTemplate {
  readonly key: string;
  readonly slots: readonly string[];
  readonly labels: readonly string[];
}

const STATUS_CODE = /^[1-5]\d\d$/;
/** A name that happens to end in a digit or two (`eth0`, `wl0`, `IPV4`, `alt0`): part of the event, not a value. */
const NUMBERED_NAME = /^[A-Za-z][A-Za-z_]*\d{1,2}$/;
/** What tokens are split at (kept in the key): space, quotes, brackets, `=`, `,`, `;`, `|`. */
const SEPARATORS = /([\s"',;=()[\]{}|<>]+)/;

/** The template of one line (see the module comment). A very long line is its own template. */
export function lineTemplate(line: string): LineTemplate {
  if (line.length > MAX_PATTERN_LINE_CHARS) return { key: line, slots: [], labels: [] };
  // Separators stay in the key as they are, so `rhost=…`, `"ts":"…"` and `[…]` keep their shape.
  const pieces = templateBookkeeping(line).split(SEPARATORS);
  const slots: string[] = [];
  const labels: string[] = [];
  let label = '';
  const key = pieces.map((piece, index) => {
    if (index % 2 === 1 || !/\d/.test(piece) || STATUS_CODE.test(piece) || NUMBERED_NAME.test(piece)) {
      if (index % 2 === 0 && /[\p{L}]/u.test(piece)) label = piece;
      return piece;
    }
    slots.push(piece);
    labels.push(label);
    return '<*>';
  }).join('');
  return { key, slots, labels };
}

/** A slot with at most this many distinct values lists them all. */
const FEW_VALUES = 12;
/** Recurring values listed for a slot with more; the rest are counted. */
const LISTED_VALUES = 10;
/** Slots described per folded template. */
const DESCRIBED_SLOTS = 3;

/** Counts of each slot's values over the lines a template folded. */
export class SlotCounts {
  private readonly counts: Map<string, number>[] = [];
  private labels: readonly string[] = [];

  /** @param listAll list every value of every slot (a warning's or an error's), never only the commonest. */
  constructor(private readonly listAll = false) {}

  add(template: LineTemplate): void {
    if (this.labels.length === 0) this.labels = template.labels;
    template.slots.forEach((value, index) => {
      const counts = (this.counts[index] ??= new Map());
      counts.set(value, (counts.get(value) ?? 0) + 1);
    });
  }

  /**
   * `from 183.62.140.253 ×139, 187.141.143.180 ×98, … 27 more`, one piece per slot whose value
   * varied, the slots with the fewest distinct values first (they say the most).
   */
  describe(): string[] {
    const varied = this.counts
      .map((counts, index) => ({ counts, index }))
      .filter(({ counts }) => counts.size > 1)
      .sort((a, b) => a.counts.size - b.counts.size || a.index - b.index)
      .slice(0, DESCRIBED_SLOTS);
    return varied.sort((a, b) => a.index - b.index).map(({ counts, index }) => {
      const ranked = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
      const total = ranked.reduce((sum, [, count]) => sum + count, 0);
      const label = this.labels[index] ? `${this.labels[index]} ` : '';
      // A few values are listed whole; of many, the ones that recur (the hosts behind most of the
      // failures), since values seen once each (paths, sequence numbers) say nothing one by one.
      const listed = this.listAll || ranked.length <= FEW_VALUES ? ranked : ranked.filter(([, count]) => count > 1).slice(0, LISTED_VALUES);
      if (listed.length === 0) return `${label}${ranked.length} distinct values`;
      const rest = ranked.length - listed.length;
      return `${label}${listed.map(([value, count]) => `${value} ×${count}`).join(', ')}${rest > 0 ? `, … ${rest} more value${rest === 1 ? '' : 's'} (${total - listed.reduce((sum, [, count]) => sum + count, 0)} lines)` : ''}`;
    });
  }
}

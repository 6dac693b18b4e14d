/**
 * Logs for the second held-out set: loghub's HealthApp and Mac logs, line for line with their
 * structured CSVs, and the renderings a user's own system would print them in (JSON lines,
 * logfmt, the raw syslog). Facts are template constants picked from the structured CSV's
 * EventTemplate, never from a rendering.
 */
import { readShared, structuredLog } from './shape';

/** One log line with its loghub ground truth (the structured CSV's row of the same LineId). */
export interface LabelledLine {
  readonly raw: string;
  readonly row: Record<string, string>;
}

/** The raw lines of a loghub log, each with its structured row (1:1 by position, checked by LineId). */
export function labelledLines(system: string): LabelledLine[] {
  const raw = readShared('logs', system, `${system}_2k.log`).split(/\r?\n/).filter((line) => line !== '');
  const rows = structuredLog(system);
  if (raw.length !== rows.length) throw new Error(`${system}: ${raw.length} lines but ${rows.length} structured rows`);
  return raw.map((line, index) => {
    const row = rows[index]!;
    if (Number(row.LineId) !== index + 1) throw new Error(`${system}: row ${index} has LineId ${row.LineId}`);
    return { raw: line, row };
  });
}

/**
 * The longest constant piece of a template (the text between its `<*>` slots) that avoids the
 * given characters, so that a rendering which escapes them (JSON, logfmt quoting) still shows it
 * verbatim. Pieces are cut at those characters too.
 */
export function constantPiece(template: string, avoid = '"\\'): string {
  const pieces: string[] = [];
  for (const piece of template.split('<*>')) {
    let current = '';
    for (const char of piece) {
      if (avoid.includes(char)) {
        pieces.push(current);
        current = '';
      } else current += char;
    }
    pieces.push(current);
  }
  return pieces.map((piece) => piece.trim()).sort((a, b) => b.length - a.length || (a < b ? -1 : 1))[0] ?? '';
}

/** The distinct constant pieces (8 characters at least) of the templates of the lines that pass `wanted`. */
export function templateFacts(lines: readonly LabelledLine[], wanted: (template: string) => boolean): string[] {
  const facts = new Set<string>();
  for (const line of lines) {
    const template = line.row.EventTemplate ?? '';
    if (!wanted(template)) continue;
    const piece = constantPiece(template);
    if (piece.length >= 8) facts.add(piece);
  }
  return [...facts];
}

/** HealthApp's `20171223-22:15:29:606` as an ISO time. */
function healthAppTime(stamp: string): string {
  const match = /^(\d{4})(\d\d)(\d\d)-(\d{1,2}):(\d\d):(\d\d):(\d{1,3})$/.exec(stamp);
  if (match === null) return stamp;
  return `${match[1]}-${match[2]}-${match[3]}T${match[4]!.padStart(2, '0')}:${match[5]}:${match[6]}.${match[7]!.padStart(3, '0')}+08:00`;
}

/** A HealthApp line as the JSON object a structured logger prints. */
export function healthAppJson(line: LabelledLine): string {
  const { Time, Component, Pid, Content } = line.row;
  return JSON.stringify({ time: healthAppTime(Time ?? ''), logger: Component, pid: Number(Pid), message: Content });
}

function logfmtValue(value: string): string {
  return /[\s"=]/.test(value) || value === '' ? JSON.stringify(value) : value;
}

/** A HealthApp line in logfmt. */
export function healthAppLogfmt(line: LabelledLine): string {
  const { Time, Component, Pid, Content } = line.row;
  return `time=${healthAppTime(Time ?? '')} app=health logger=${logfmtValue(Component ?? '')} pid=${Pid} msg=${logfmtValue(Content ?? '')}`;
}

const MONTHS: Record<string, string> = { Jan: '01', Feb: '02', Mar: '03', Apr: '04', May: '05', Jun: '06', Jul: '07', Aug: '08', Sep: '09', Oct: '10', Nov: '11', Dec: '12' };

/** A Mac syslog line in logfmt (year 2017 assumed; the log has none). */
export function macLogfmt(line: LabelledLine): string {
  const { Month, Date: day, Time, User, Component, PID, Content } = line.row;
  const time = `2017-${MONTHS[Month ?? ''] ?? '01'}-${(day ?? '1').padStart(2, '0')}T${Time}`;
  return `ts=${time} host=${logfmtValue(User ?? '')} proc=${logfmtValue(Component ?? '')} pid=${PID || '-'} msg=${logfmtValue(Content ?? '')}`;
}

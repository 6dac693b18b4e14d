/**
 * Retrieval and page workloads: Cranfield documents as a retriever's over-fetch (facts from its
 * relevance judgements) and readability test pages returned by a fetch tool (facts from each
 * page's expected main content).
 */
import type { Workload } from './types';
import { freshToolResult, MODEL, readShared } from './shape';

export interface CranfieldDocument { readonly id: number; readonly title: string; readonly text: string }

export function cranfieldDocuments(): CranfieldDocument[] {
  return readShared('retrieval', 'cranfield', 'cran.all.1400').replace(/\r\n/g, '\n').split(/^\.I /m).slice(1).map((record) => {
    const id = Number(record.split('\n')[0]);
    const field = (name: string): string => new RegExp(`^\\.${name}\\n([\\s\\S]*?)(?=^\\.[TABW]\\n|$(?![\\s\\S]))`, 'm').exec(record)?.[1]?.trim() ?? '';
    return { id, title: field('T').replace(/\s+/g, ' '), text: field('W') };
  });
}

/** Queries in file order: the judgements number them 1…225 by position, not by their `.I` ids. */
export function cranfieldQueries(): string[] {
  return readShared('retrieval', 'cranfield', 'cran.qry').replace(/\r\n/g, '\n').split(/^\.I /m).slice(1).map((record) => (/^\.W\n([\s\S]*)$/m.exec(record)?.[1] ?? '').replace(/\s+/g, ' ').trim());
}

export function judgements(): Map<number, Map<number, number>> {
  const byQuery = new Map<number, Map<number, number>>();
  for (const line of readShared('retrieval', 'cranfield', 'cranqrel').split('\n')) {
    const [query, document, code] = line.trim().split(/\s+/).map(Number);
    if (query === undefined || document === undefined || code === undefined || Number.isNaN(code)) continue;
    const judged = byQuery.get(query) ?? new Map<number, number>();
    judged.set(document, code);
    byQuery.set(query, judged);
  }
  return byQuery;
}

const STOP = new Set(['the', 'of', 'and', 'a', 'an', 'in', 'on', 'for', 'to', 'is', 'are', 'what', 'which', 'how', 'be', 'by', 'with', 'at', 'has', 'have', 'been', 'can', 'does', 'do', 'there', 'any', 'as', 'or', 'from', 'that', 'this', 'it']);

export function terms(text: string): string[] {
  return (text.toLowerCase().match(/[a-z]{3,}/g) ?? []).filter((word) => !STOP.has(word));
}

/**
 * A retriever's 20 results for a Cranfield query: the documents judged a complete answer or of
 * high relevance (codes 1 and 2), and the best term-overlap matches among the documents not
 * judged at all for it, in term-overlap order.
 */
function retrievedChunks(queryNumber: number, documents: readonly CranfieldDocument[], judged: ReadonlyMap<number, number>): { chunks: CranfieldDocument[]; answers: CranfieldDocument[] } {
  const queryTerms = new Set(terms(cranfieldQueries()[queryNumber - 1]!));
  const score = (document: CranfieldDocument): number => terms(`${document.title} ${document.text}`).filter((term) => queryTerms.has(term)).length;
  const answers = documents.filter((document) => (judged.get(document.id) ?? 99) <= 2);
  const distractors = documents.filter((document) => !judged.has(document.id)).sort((a, b) => score(b) - score(a) || a.id - b.id).slice(0, 20 - answers.length);
  const chunks = [...answers, ...distractors].sort((a, b) => score(b) - score(a) || a.id - b.id);
  return { chunks, answers };
}

function cranfieldWorkload(queryNumber: number): Workload {
  const documents = cranfieldDocuments();
  const judged = judgements().get(queryNumber)!;
  const { chunks, answers } = retrievedChunks(queryNumber, documents, judged);
  const question = cranfieldQueries()[queryNumber - 1]!;
  const context = chunks.map((chunk, index) => `[${index + 1}] (document ${chunk.id}) ${chunk.title}\n${chunk.text}`).join('\n\n');
  return {
    id: `rag-cranfield-${queryNumber}`,
    category: 'RAG and tool-heavy',
    pattern: `20 retrieved chunks, ${answers.length} of which answer`,
    question,
    body: {
      model: MODEL,
      messages: [
        { role: 'system', content: 'Answer the user\'s question from the retrieved documents. Cite the documents you use by their number.' },
        { role: 'user', content: `Question: ${question}\n\nRetrieved documents:\n\n${context}` },
      ],
    },
    facts: answers.map((answer) => answer.title),
    source: `Cranfield query ${queryNumber} with the documents its judgements rate 1 or 2 and the best term-overlap matches among unjudged documents (20 in all); facts: the titles of the judged answers`,
  };
}

/** Queries whose judgements rate exactly two documents 1 or 2: "20 retrieved, 2 answer". */
export function twoAnswerQueries(count: number): number[] {
  const found: number[] = [];
  for (const [query, judged] of [...judgements()].sort((a, b) => a[0] - b[0])) {
    if ([...judged.values()].filter((code) => code <= 2).length === 2) found.push(query);
    if (found.length === count) break;
  }
  return found;
}

/**
 * Phrases of a page's expected main content that a correct summary rests on: from the start, the
 * middle and the end of the expected text, the first run of eight words there that the page's
 * source contains verbatim.
 */
export function mainContentPhrases(page: string, source: string, wanted: readonly string[] = []): string[] {
  const expected = readShared('html', page, 'expected.html').replace(/<[^>]+>/g, ' ').replace(/&[a-z#0-9]+;/gi, ' ').replace(/\s+/g, ' ').trim();
  const words = expected.split(' ');
  const facts = wanted.filter((phrase) => expected.includes(phrase) && source.includes(phrase));
  for (const start of [0, Math.floor(words.length / 2), Math.floor(words.length * 0.85)]) {
    for (let index = start; index < words.length - 8; index++) {
      const phrase = words.slice(index, index + 8).join(' ');
      if (/[a-z]{3}/i.test(phrase) && source.includes(phrase)) {
        facts.push(phrase);
        break;
      }
    }
  }
  return [...new Set(facts)];
}

function pageWorkload(page: string, question: string, options: { oneLine?: boolean; wanted?: string[] } = {}): Workload {
  const raw = readShared('html', page, 'source.html');
  const source = options.oneLine ? raw.replace(/\s*\n\s*/g, ' ') : raw;
  return {
    id: `html-${page}${options.oneLine ? '-one-line' : ''}`,
    category: 'RAG and tool-heavy',
    pattern: options.oneLine ? 'a web page returned on one line (minified)' : 'a web page returned by a fetch tool',
    question,
    body: freshToolResult(question, { name: 'fetch_webpage', arguments: { url: `https://example.org/${page}` } }, source),
    facts: mainContentPhrases(page, source, options.wanted),
    source: `html/${page}/source.html${options.oneLine ? ' with every line break and the indentation around it collapsed to one space' : ''} as a fetch result; facts: phrases of expected.html (the main content) that the page contains verbatim`,
  };
}

export function ragWorkloads(): Workload[] {
  return [
    ...twoAnswerQueries(3).map(cranfieldWorkload),
    pageWorkload('google-sre-book-1', 'According to this chapter, what are the four golden signals of monitoring?', { wanted: ['golden signals of monitoring are latency, traffic, errors, and saturation'] }),
    pageWorkload('ars-1', 'What bug does this article describe, and how does the attack work?', { oneLine: true }),
  ];
}

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { itWithData, sharedPath } from '../../../test/support/sharedData';
import { termStatistics } from './bm25';
import { LineTerms } from './lineTerms';
import { tokenizeForSearch } from './searchTokenizer';
import type { TermBatch } from './types';

/** A batch that only numbers terms (what LineTerms asks of it), remembering each id's term. */
function numberingBatch(): TermBatch & { terms: string[] } {
  const ids = new Map<string, number>();
  const terms: string[] = [];
  return {
    terms,
    idOf(term: string): number {
      let id = ids.get(term);
      if (id === undefined) {
        id = terms.length;
        ids.set(term, id);
        terms.push(term);
      }
      return id;
    },
    embedIds: () => new Float32Array(0),
    cached: () => undefined,
    remember: () => undefined,
  };
}

function checkTexts(texts: readonly string[], query: string): void {
  const batch = numberingBatch();
  const queryTerms = [...new Set(tokenizeForSearch(query))];
  const queryIndex = new Map(queryTerms.map((term, position) => [term, position]));
  const lines = new LineTerms(batch, queryIndex);
  for (const text of texts) {
    lines.read(text);
    const terms = tokenizeForSearch(text);
    assert.deepEqual([...lines.ids.subarray(0, lines.count)].map((id) => batch.terms[id]), terms, text);
    assert.deepEqual(lines.statistics(queryTerms.length), termStatistics(terms, queryIndex), text);
  }
}

describe('LineTerms', () => {
  it('reads each text as the ids of its search terms, with the BM25 statistics of its terms', () => {
    checkTexts(['disk full on node-7, disk full again', '', '!!!', 'Failed password for root from 10.0.9.3 port 22', 'getUserName failed: getUserName returned null', 'café crème: échec', 'disk full on node-7, disk full again', 'src/core/index.ts:12 error'], 'why did the disk fail? password errors');
  });

  itWithData('agrees with tokenizeForSearch and termStatistics on every line of a real log', () => {
    const lines = fs.readFileSync(sharedPath('logs', 'Linux', 'Linux_2k.log'), 'utf8').split('\n');
    checkTexts(lines, 'Why did authentication fail? Show the errors and warnings.');
  });
});

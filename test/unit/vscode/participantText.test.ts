import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import { getContext } from '../../../src/core/knowledge/getContext';
import { loadLibrary } from '../../../src/core/knowledge/library';
import { contextReply, libraryFootnote, libraryMessage, noLibraryHint } from '../../../src/vscode/knowledge/participantText';

const SAMPLE = path.resolve(__dirname, '..', '..', 'e2e', 'fixtures', 'sample-library');
const quiet = { info() {}, warn() {}, error() {} };

describe('@herald texts', () => {
  it('/context with nothing matching says the bundle holds only the rules, which are the references listed above it', async () => {
    const library = loadLibrary(SAMPLE, { logger: quiet });
    const result = await getContext(library, { task: 'kubernetes cluster autoscaling' }, { logger: quiet });
    assert.equal(result.nothingFound, true);
    const reply = contextReply(result);
    // "Used N references" above it counts result.pages: the text must name as many pages, never "nothing matches" alone.
    assert.doesNotMatch(reply, /^Nothing in the library matches this task\.$/m);
    if (result.pages.length > 0) {
      assert.match(reply, new RegExp(`^No reference page matches this task\\..*(the rule that applies|the ${result.pages.length} rules that apply) to every task \\(${result.pages.length} pages?,`, 's'));
      assert.match(libraryMessage(result)!, /These are the team's rules/);
      assert.doesNotMatch(libraryMessage(result)!, /check with the user/);
    } else {
      assert.match(reply, /^Nothing in the library matches this task, and it has no rules/);
      assert.equal(libraryMessage(result), undefined);
    }
    assert.match(libraryFootnote(result), /Nothing in the library/);
  });

  it('/context with a match lists its pages and tokens; the answer gets the whole bundle', async () => {
    const library = loadLibrary(SAMPLE, { logger: quiet });
    const result = await getContext(library, { task: 'how are invoice numbers formed' }, { logger: quiet });
    assert.equal(result.nothingFound, false);
    assert.match(contextReply(result), new RegExp(`^\\*\\*${result.pages.length} pages?, ${result.tokens} of ${result.maxTokens} tokens\\*\\*`));
    assert.match(libraryMessage(result)!, /Invoice numbering/);
    assert.match(libraryFootnote(result), /From the library: .*\*\*Invoice numbering\*\*/);
  });

  it('without a library, the hint says why and how to start one, once', () => {
    const hint = noLibraryHint('No library yet: ".herald" does not exist in this workspace. Run "Herald: New Library Page" to start one.');
    assert.match(hint, /Answered without a knowledge library\. No library yet/);
    assert.equal(hint.match(/New Library Page/g)?.length, 1);
    assert.match(noLibraryHint(undefined), /Run \*\*Herald: New Library Page\*\* to start one/);
  });
});

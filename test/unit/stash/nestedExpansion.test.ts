import { strict as assert } from 'node:assert';
import { MemoryBlobStore, Stash } from '../../../src/core/stash';

describe('stash: expansion by text of nested elisions', () => {
  it('undoes an elision whose replacement keeps an inner marker before that inner one', async () => {
    const stash = new Stash({ store: new MemoryBlobStore(), key: new Uint8Array(32).fill(5) });
    const body = Array.from({ length: 20 }, (_, index) => `print(${index})`).join('\n');
    const original = `I will write the script now, after much thought.\n\ncat <<'EOF' > a.py\n${body}\nEOF`;
    // The inner elision (a here-document body), then an outer one that keeps the command, marker included, verbatim.
    const inner = stash.elide({ original: body, summary: 'here-document', kind: 'inner' });
    const withInner = original.replace(body, inner.replacement);
    const outer = stash.elide({ original: withInner, summary: '1 sentence elided', kind: 'outer', render: (marker) => `${marker}\n\ncat <<'EOF' > a.py\n${inner.replacement}\nEOF` });
    assert.equal(await stash.expandText(outer.replacement), original);
    // Side by side, each is undone where it stands.
    assert.equal(await stash.expandText(`${inner.replacement} and ${outer.replacement}`), `${body} and ${original}`);
  });
});

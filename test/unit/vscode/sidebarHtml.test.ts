import { strict as assert } from 'node:assert';
import { sidebarHtml } from '../../../src/vscode/sidebar/sidebarHtml';

describe('sidebar page', () => {
  const page = sidebarHtml({ nonce: 'n0nce123', cspSource: 'vscode-webview://abc', scriptUri: 'vscode-webview://abc/dist/webview/decisions.js', styleUri: 'vscode-webview://abc/media/sidebar.css', title: 'Decisions' });
  const csp = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(page)?.[1] ?? '';

  it('denies everything by default and allows scripts only with the page nonce', () => {
    const directives = Object.fromEntries(csp.split(';').map((part) => part.trim().split(/\s+/)).map(([name, ...values]) => [name, values]));
    assert.deepEqual(directives['default-src'], ["'none'"]);
    assert.deepEqual(directives['script-src'], ["'nonce-n0nce123'"]);
    assert.deepEqual(directives['style-src'], ['vscode-webview://abc']);
    assert.ok(!csp.includes('unsafe-inline') && !csp.includes('unsafe-eval') && !csp.includes('*'));
  });

  it('has no inline script or handler, and every script carries the nonce', () => {
    const scripts = [...page.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    assert.equal(scripts.length, 1);
    assert.match(scripts[0]![1]!, /nonce="n0nce123"/);
    assert.equal(scripts[0]![2]!.trim(), '', 'no inline code');
    assert.doesNotMatch(page, /\son[a-z]+\s*=/i, 'no inline event handlers');
  });

  it('escapes hostile values instead of letting them open markup', () => {
    const hostile = sidebarHtml({ nonce: 'x" onload="alert(1)', cspSource: 'vscode-webview://abc', scriptUri: 'a"><script>alert(1)</script>', styleUri: 's', title: '</title><script>alert(1)</script>' });
    assert.equal([...hostile.matchAll(/<script\b/g)].length, 1, 'only the page\'s own script element');
    assert.doesNotMatch(hostile, /<\/title><script>/);
    assert.doesNotMatch(hostile, /" onload="/);
  });
});

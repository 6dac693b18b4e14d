import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { itWithData, sharedPath } from '../../../test/support/sharedData';
import { detectContentFormat } from './detect';

describe('detectContentFormat', () => {
  it('trusts the command that produced the output', () => {
    const cases: [string, string][] = [
      ['cd /repo && python -m pytest tests/test_x.py -x 2>&1 | tail -50', 'test-output'],
      ['npx jest --ci', 'test-output'],
      ['go test ./...', 'test-output'],
      ['cargo test --workspace', 'test-output'],
      ['/testbed/tests/runtests.py timezones', 'test-output'],
      ['grep -rn "refund" src | head -40', 'grep'],
      ['rg -n TODO', 'grep'],
      ['git diff HEAD~1', 'diff'],
      ['find . -name "*.py"', 'file-listing'],
      ['ls -R astropy/table | grep ".py" | head -n 20', 'file-listing'],
      ['kubectl logs api-7d9f', 'log'],
    ];
    for (const [command, format] of cases) assert.equal(detectContentFormat('whatever it printed', { command }), format, command);
    assert.equal(detectContentFormat('plain words here', { command: 'python script.py' }), 'text');
  });

  it('uses the path when there is no telling command', () => {
    assert.equal(detectContentFormat('<p>hi</p>', { path: 'docs/page.html' }), 'html');
    assert.equal(detectContentFormat('{"a":1}', { path: 'data.json' }), 'json');
    assert.equal(detectContentFormat('anything', { path: 'server.log' }), 'log');
  });

  itWithData('reads a real JUnit report named by its path as test output', () => {
    const junit = fs.readFileSync(sharedPath('test-reports', 'jest-junit.xml'), 'utf8');
    assert.equal(detectContentFormat(junit, { path: 'reports/jest-junit.xml' }), 'test-output');
  });

  itWithData('recognises the shared material by its shape', () => {
    for (const page of ['bbc-1', 'wikipedia', 'nytimes-1']) {
      assert.equal(detectContentFormat(fs.readFileSync(sharedPath('html', page, 'source.html'), 'utf8')), 'html', page);
    }
    for (const file of ['get-repository.json', 'errors.json', 'paginate-issues.json']) {
      assert.equal(detectContentFormat(fs.readFileSync(sharedPath('json', 'github-api', file), 'utf8')), 'json', file);
    }
    for (const file of ['golang-json.json', 'dart-json.json', 'mocha-json.json', 'rspec-json.json', 'dotnet-nunit.xml', 'python-xunit-pytest.xml']) {
      assert.equal(detectContentFormat(fs.readFileSync(sharedPath('test-reports', file), 'utf8')), 'test-output', file);
    }
  });

  itWithData('leaves prose as text', () => {
    const folder = sharedPath('prose', 'paul-graham-essays');
    const essays = fs.readdirSync(folder).sort();
    assert.ok(essays.length > 10);
    for (const essay of essays) assert.equal(detectContentFormat(fs.readFileSync(`${folder}/${essay}`, 'utf8')), 'text', essay);
  });

  itWithData('reads a page as HTML whatever its layout: on one line, after a status line and headers, after a sentence', () => {
    let pages = 0;
    for (const page of fs.readdirSync(sharedPath('html')).sort()) {
      const oneLine = fs.readFileSync(sharedPath('html', page, 'source.html'), 'utf8').replace(/\s*\n\s*/g, ' ');
      // Pages under 2,000 characters are small enough to be data an agent is debugging.
      if (oneLine.length < 2_000 || page === 'data-url-image' || page === 'hidden-nodes') continue;
      pages++;
      for (const text of [oneLine, `HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n\r\n${oneLine}`, `Fetched https://example.com/${page}: ${oneLine}`]) {
        assert.equal(detectContentFormat(text), 'html', `${page}: ${text.slice(0, 60)}`);
      }
      assert.equal(detectContentFormat(JSON.stringify({ status: 200, body: oneLine })), 'json', page);
    }
    assert.ok(pages >= 45, `${pages} pages`);
  });

  it('reads minified markup on one line as HTML, not tags inside source code, Markdown or a quoted failure', () => {
    const cells = Array.from({ length: 40 }, (_, row) => `<tr><td class="id">${row}</td><td><a href="/orders/${row}">Order ${row}</a></td><td><span>shipped</span></td></tr>`).join('');
    const minified = `<div id="app"><header><h1>Orders</h1></header><main><table>${cells}</table><p>Showing 40 of 500.</p></main></div>`;
    assert.equal(detectContentFormat(minified), 'html');
    assert.equal(detectContentFormat(`Response body: ${minified}`), 'html');
    // The same markup in short lines inside source code stays text (JSX, a template in Elixir).
    const jsx = `import { Order } from './order';\n\nexport function Orders() {\n  return (\n${minified.replace(/></g, '>\n    <')}\n  );\n}\n`;
    assert.equal(detectContentFormat(jsx), 'text');
    const heex = `defmodule ShopWeb.OrdersLive do\n  use Phoenix.LiveView\n\n  def render(assigns) do\n    ~H\"\"\"\n${minified.replace(/></g, '>\n      <')}\n    \"\"\"\n  end\nend\n`;
    assert.equal(detectContentFormat(heex), 'text');
    const failure = `1) test renders the orders page (ShopWeb.OrdersLiveTest)\n   test/shop_web/orders_live_test.exs:12\n   Assertion with =~ failed\n   left:  "<html lang=\\"en\\"><body>${minified.replaceAll('"', '\\"')}</body></html>"\n   right: "Orders"\n`;
    assert.notEqual(detectContentFormat(failure), 'html');
    // Prose that mentions a few tags is prose.
    assert.equal(detectContentFormat(`Wrap the list in <ul> and each entry in <li>; a <table> needs <tr> and <td>. ${'Plain words follow. '.repeat(150)}`), 'text');
  });

  it('says text for empty and unrecognised content', () => {
    for (const text of ['', '   \n  ', 'Just a sentence.', 'def f():\n    return 1\n']) assert.equal(detectContentFormat(text), 'text');
  });
});

describe('detectContentFormat on file views', () => {
  /** A file view as Claude Code's Read prints it: the number right-aligned in six columns, an arrow, the line. */
  const view = (lines: readonly string[], from = 1): string[] => lines.map((line, index) => `${String(from + index).padStart(6)}→${line}`);
  const hits = (count: number): string[] => Array.from({ length: count }, (_, index) => `src/module${index}.py:${index + 3}:    retry(request)`);

  it('counts a view\'s numbered lines as lines that are not hits: the hits around them must still make their share of all lines', () => {
    // 6 hits among 10 lines is the grep share (0.6); 6 among 11 is not. Counted over the hits alone it would be 1 either way.
    assert.equal(detectContentFormat([...view(Array.from({ length: 4 }, (_, index) => `line ${index}`)), ...hits(6)].join('\n')), 'grep');
    assert.equal(detectContentFormat([...view(Array.from({ length: 5 }, (_, index) => `line ${index}`)), ...hits(6)].join('\n')), 'text');
  });

  it('reads a view of a tree as a listing, and a view of hits, log lines or frames as the file it shows', () => {
    const tree = ['project', '├── src', '│   ├── index.ts', '│   └── util.ts', '├── test', '│   └── index.test.ts', '└── package.json'];
    assert.equal(detectContentFormat(view(tree).join('\n')), 'file-listing');
    assert.equal(detectContentFormat(view(hits(12)).join('\n')), 'text');
    assert.equal(detectContentFormat(view(Array.from({ length: 12 }, (_, index) => `2024-05-01 10:00:${String(index).padStart(2, '0')} INFO worker ${index} started`)).join('\n')), 'text');
    assert.equal(detectContentFormat(view(['Traceback (most recent call last):', '  File "app.py", line 3, in <module>', '    main()', '  File "app.py", line 2, in main', 'ValueError: bad']).join('\n')), 'text');
  });
});

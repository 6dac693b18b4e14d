/**
 * A forgiving tokenizer for HTML and XML: start tags with attributes, end tags, text,
 * CDATA, comments and declarations. Linear: it only scans forward with indexOf, so
 * malformed or hostile markup cannot make it backtrack.
 */

/** One piece of markup, in document order. */
export type MarkupToken =
  | { readonly kind: 'start'; readonly name: string; readonly attributes: ReadonlyMap<string, string>; readonly selfClosing: boolean }
  | { readonly kind: 'end'; readonly name: string }
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'cdata'; readonly text: string };

/** Elements whose content is raw text, never markup: skipped to their end tag as one piece. */
const RAW_TEXT_ELEMENTS = new Set(['script', 'style', 'textarea', 'title', 'xmp', 'plaintext', 'noscript', 'iframe', 'noembed', 'noframes']);

function isNameStart(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95 || code === 58;
}

/** Tokenizes markup. `rawText` turns HTML raw-text handling on (script, style…); XML leaves it off. */
export function* tokenizeMarkup(source: string, options: { rawText: boolean }): Generator<MarkupToken> {
  let position = 0;
  const length = source.length;
  while (position < length) {
    const open = source.indexOf('<', position);
    if (open === -1) {
      yield { kind: 'text', text: source.slice(position) };
      return;
    }
    if (open > position) yield { kind: 'text', text: source.slice(position, open) };
    const next = source.charCodeAt(open + 1);
    if (source.startsWith('<!--', open)) {
      const close = source.indexOf('-->', open + 4);
      position = close === -1 ? length : close + 3;
      continue;
    }
    if (source.startsWith('<![CDATA[', open)) {
      const close = source.indexOf(']]>', open + 9);
      yield { kind: 'cdata', text: source.slice(open + 9, close === -1 ? length : close) };
      position = close === -1 ? length : close + 3;
      continue;
    }
    if (next === 33 /* ! */ || next === 63 /* ? */) {
      const close = source.indexOf('>', open + 2);
      position = close === -1 ? length : close + 1;
      continue;
    }
    if (next === 47 /* / */ && isNameStart(source.charCodeAt(open + 2))) {
      const close = source.indexOf('>', open + 2);
      const end = close === -1 ? length : close;
      const name = readName(source, open + 2, end);
      yield { kind: 'end', name: name.toLowerCase() };
      position = end + 1;
      continue;
    }
    if (!isNameStart(next)) {
      // A lone '<' (as in "a < b") is text.
      yield { kind: 'text', text: '<' };
      position = open + 1;
      continue;
    }
    const tag = readStartTag(source, open + 1);
    const name = tag.name.toLowerCase();
    yield { kind: 'start', name, attributes: tag.attributes, selfClosing: tag.selfClosing };
    position = tag.end;
    if (options.rawText && RAW_TEXT_ELEMENTS.has(name) && !tag.selfClosing) {
      const close = findRawTextEnd(source, position, name);
      if (close > position) yield { kind: 'text', text: source.slice(position, close) };
      if (close < length) {
        const closeEnd = source.indexOf('>', close);
        yield { kind: 'end', name };
        position = closeEnd === -1 ? length : closeEnd + 1;
      } else {
        position = length;
      }
    }
  }
}

function readName(source: string, start: number, limit: number): string {
  let end = start;
  while (end < limit) {
    const code = source.charCodeAt(end);
    if (code === 32 || code === 9 || code === 10 || code === 13 || code === 12 || code === 47 || code === 62) break;
    end++;
  }
  return source.slice(start, end);
}

/** Reads `name attr="v" attr2=v2 attr3 /?>` starting right after '<'; quoted values may hold '>'. */
function readStartTag(source: string, start: number): { name: string; attributes: Map<string, string>; selfClosing: boolean; end: number } {
  const length = source.length;
  const name = readName(source, start, length);
  const attributes = new Map<string, string>();
  let position = start + name.length;
  let selfClosing = false;
  while (position < length) {
    const code = source.charCodeAt(position);
    if (code === 62 /* > */) return { name, attributes, selfClosing, end: position + 1 };
    if (code === 47 /* / */) {
      selfClosing = source.charCodeAt(position + 1) === 62;
      position++;
      continue;
    }
    if (code === 32 || code === 9 || code === 10 || code === 13 || code === 12) {
      position++;
      continue;
    }
    // An attribute name runs to whitespace, '=', '/' or '>'.
    let nameEnd = position;
    while (nameEnd < length) {
      const c = source.charCodeAt(nameEnd);
      if (c === 61 || c === 62 || c === 47 || c === 32 || c === 9 || c === 10 || c === 13 || c === 12) break;
      nameEnd++;
    }
    if (nameEnd === position) nameEnd++;
    const attributeName = source.slice(position, nameEnd).toLowerCase();
    position = nameEnd;
    while (position < length && /\s/.test(source[position]!)) position++;
    let value = '';
    if (source.charCodeAt(position) === 61 /* = */) {
      position++;
      while (position < length && /\s/.test(source[position]!)) position++;
      const quote = source[position];
      if (quote === '"' || quote === "'") {
        const close = source.indexOf(quote, position + 1);
        const valueEnd = close === -1 ? length : close;
        value = source.slice(position + 1, valueEnd);
        position = valueEnd + 1;
      } else {
        let valueEnd = position;
        while (valueEnd < length) {
          const c = source.charCodeAt(valueEnd);
          if (c === 62 || c === 32 || c === 9 || c === 10 || c === 13 || c === 12) break;
          valueEnd++;
        }
        value = source.slice(position, valueEnd);
        position = valueEnd;
      }
    }
    if (!attributes.has(attributeName)) attributes.set(attributeName, decodeEntities(value));
  }
  return { name, attributes, selfClosing, end: length };
}

function findRawTextEnd(source: string, from: number, name: string): number {
  const lower = `</${name}`;
  let position = from;
  for (;;) {
    const candidate = source.indexOf('</', position);
    if (candidate === -1) return source.length;
    if (source.slice(candidate, candidate + lower.length).toLowerCase() === lower) {
      const after = source.charCodeAt(candidate + lower.length);
      if (Number.isNaN(after) || after === 62 || after === 32 || after === 9 || after === 10 || after === 13 || after === 47) return candidate;
    }
    position = candidate + 2;
  }
}

const NAMED_ENTITIES: Readonly<Record<string, string>> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0', ensp: '\u2002', emsp: '\u2003', thinsp: '\u2009',
  shy: '\u00ad', zwj: '\u200d', zwnj: '\u200c', ndash: '\u2013', mdash: '\u2014', hellip: '\u2026', horbar: '\u2015',
  lsquo: '\u2018', rsquo: '\u2019', sbquo: '\u201a', ldquo: '\u201c', rdquo: '\u201d', bdquo: '\u201e',
  laquo: '\u00ab', raquo: '\u00bb', lsaquo: '\u2039', rsaquo: '\u203a', prime: '\u2032', Prime: '\u2033',
  bull: '\u2022', middot: '\u00b7', deg: '\u00b0', copy: '\u00a9', reg: '\u00ae', trade: '\u2122', times: '\u00d7',
  divide: '\u00f7', plusmn: '\u00b1', para: '\u00b6', sect: '\u00a7', dagger: '\u2020', Dagger: '\u2021',
  euro: '\u20ac', pound: '\u00a3', yen: '\u00a5', cent: '\u00a2', frac12: '\u00bd', frac14: '\u00bc', frac34: '\u00be',
  sup1: '\u00b9', sup2: '\u00b2', sup3: '\u00b3', micro: '\u00b5', iexcl: '\u00a1', iquest: '\u00bf', larr: '\u2190',
  rarr: '\u2192', uarr: '\u2191', darr: '\u2193', harr: '\u2194', hearts: '\u2665', check: '\u2713', minus: '\u2212',
  agrave: '\u00e0', aacute: '\u00e1', acirc: '\u00e2', atilde: '\u00e3', auml: '\u00e4', aring: '\u00e5', aelig: '\u00e6',
  ccedil: '\u00e7', egrave: '\u00e8', eacute: '\u00e9', ecirc: '\u00ea', euml: '\u00eb', igrave: '\u00ec', iacute: '\u00ed',
  icirc: '\u00ee', iuml: '\u00ef', ntilde: '\u00f1', ograve: '\u00f2', oacute: '\u00f3', ocirc: '\u00f4', otilde: '\u00f5',
  ouml: '\u00f6', oslash: '\u00f8', ugrave: '\u00f9', uacute: '\u00fa', ucirc: '\u00fb', uuml: '\u00fc', yacute: '\u00fd',
  yuml: '\u00ff', szlig: '\u00df', Agrave: '\u00c0', Aacute: '\u00c1', Acirc: '\u00c2', Atilde: '\u00c3', Auml: '\u00c4',
  Aring: '\u00c5', AElig: '\u00c6', Ccedil: '\u00c7', Egrave: '\u00c8', Eacute: '\u00c9', Ecirc: '\u00ca', Euml: '\u00cb',
  Igrave: '\u00cc', Iacute: '\u00cd', Icirc: '\u00ce', Iuml: '\u00cf', Ntilde: '\u00d1', Ograve: '\u00d2', Oacute: '\u00d3',
  Ocirc: '\u00d4', Otilde: '\u00d5', Ouml: '\u00d6', Oslash: '\u00d8', Ugrave: '\u00d9', Uacute: '\u00da', Ucirc: '\u00db',
  Uuml: '\u00dc', Yacute: '\u00dd', oelig: '\u0153', OElig: '\u0152', scaron: '\u0161', Scaron: '\u0160',
};

/** Decodes numeric and common named character references; unknown ones stay as written. */
export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#[xX][0-9a-fA-F]{1,6}|#[0-9]{1,7}|[A-Za-z][A-Za-z0-9]{1,31});?/g, (whole, body: string) => {
    if (body.startsWith('#')) {
      const code = body[1] === 'x' || body[1] === 'X' ? Number.parseInt(body.slice(2), 16) : Number.parseInt(body.slice(1), 10);
      if (!Number.isFinite(code) || code <= 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return whole;
      return String.fromCodePoint(code);
    }
    const named = NAMED_ENTITIES[body];
    if (named !== undefined && (whole.endsWith(';') || body === 'amp' || body === 'lt' || body === 'gt' || body === 'quot' || body === 'nbsp')) return named;
    return whole;
  });
}

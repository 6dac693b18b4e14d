/**
 * Shortening a tool's free-text description without changing what it says: whitespace runs,
 * boilerplate openers ("This tool allows you to …") and politeness ("Please be sure to …").
 * Fenced code inside a description passes through byte for byte, and so does each line's
 * leading indentation (nested lists keep their shape).
 */

/** Openers that only announce that a tool is a tool; what follows is the description proper. */
const BOILERPLATE_OPENERS: readonly RegExp[] = [
  /^(?:this|the) (?:tool|function|endpoint|api|command) (?:allows|lets|enables|helps) (?:you|the (?:user|assistant|model|agent)) (?:to )?/i,
  /^(?:this|the) (?:tool|function|endpoint|api|command) (?:can be |is )?used (?:to|for) /i,
  /^(?:this|the) (?:tool|function|endpoint|api|command) (?:will |is able to |can )/i,
  /^use this (?:tool|function) (?:to|for|when(?:ever)?) /i,
  /^(?:a|an) (?:tool|function) (?:that|which) (?:allows you to |lets you |can )?/i,
  /^(?:a|an) (?:tool|function) (?:to|for) /i,
  /^tool (?:to|for) /i,
];

/** Courtesy phrases at a sentence start that carry no instruction of their own. */
const POLITE_OPENERS = /(^|[.!?]\s+|\n\s*)(?:please (?:be sure to|make sure to|make sure that|ensure that|ensure|remember to|note that|note:)|please|kindly) +([a-z])/gi;

export function compressDescription(text: string): string {
  const pieces = text.split(/(```[\s\S]*?```)/);
  const out = pieces.map((piece, index) => (index % 2 === 1 ? piece : tidyProse(piece, index === 0)));
  return out.join('').trim();
}

function tidyProse(text: string, atStart: boolean): string {
  let result = text
    .split('\n')
    .map((line) => {
      const indent = /^[ \t]*/.exec(line)?.[0] ?? '';
      return indent + line.slice(indent.length).replace(/[ \t]{2,}/g, ' ').replace(/[ \t]$/, '');
    })
    .join('\n')
    .replace(/\n{3,}/g, '\n\n');
  if (atStart) {
    const leading = /^\s*/.exec(result)?.[0] ?? '';
    let body = result.slice(leading.length);
    for (const opener of BOILERPLATE_OPENERS) {
      const match = opener.exec(body);
      if (match && body.length > match[0].length + 8) {
        body = body.slice(match[0].length);
        break;
      }
    }
    result = leading + body;
  }
  return result.replace(POLITE_OPENERS, (_whole, before: string, first: string) => before + (before.length === 0 || /[.!?]\s+$|\n\s*$/.test(before) ? first.toUpperCase() : first));
}

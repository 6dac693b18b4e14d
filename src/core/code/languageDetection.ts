/**
 * Which language a source is in: the file name first (its extension), the content second
 * (a shebang, then telltale lines). Content detection is deliberately conservative: a wrong
 * guess only costs a pass-through, but guessing code in prose would outline prose.
 */
import { LANGUAGES, languageById, type LanguageId, type LanguageSpec } from './languages';

export function languageFromPath(filePath: string): LanguageSpec | undefined {
  const name = filePath.toLowerCase();
  let best: LanguageSpec | undefined;
  let bestLength = 0;
  for (const language of LANGUAGES) {
    for (const extension of language.extensions) {
      if (name.endsWith(extension) && extension.length > bestLength) {
        best = language;
        bestLength = extension.length;
      }
    }
  }
  return best;
}

const SHEBANGS: readonly [RegExp, LanguageId][] = [
  [/python/, 'python'],
  [/\b(node|deno|bun)\b/, 'javascript'],
  [/\b(ts-node|tsx)\b/, 'typescript'],
  [/\bruby\b/, 'ruby'],
  [/\bphp\b/, 'php'],
  [/\b(ba|z|da)?sh\b/, 'bash'],
];

/** Telltale lines per language, each worth one point; a language needs two distinct ones. */
const SIGNS: Readonly<Record<LanguageId, readonly RegExp[]>> = {
  python: [/^\s*def \w+\(.*\)\s*(->[^:]+)?:\s*$/m, /^\s*class \w+(\(.*\))?:\s*$/m, /^(from [\w.]+ )?import [\w.]+/m, /\bself\.\w+/, /^\s*(elif|except)\b.*:\s*$/m, /^\s*@\w+/m],
  go: [/^package \w+\s*$/m, /^func (\(\w+ \*?\w+\) )?\w+\(/m, /:= /, /^import \(/m],
  rust: [/^\s*(pub(\(crate\))? )?fn \w+/m, /\blet mut\b/, /^\s*impl\b/m, /^use [\w:]+/m, /->\s*(Self|Result|Option)\b/],
  java: [/^package [\w.]+;\s*$/m, /^import [\w.]+(\.\*)?;\s*$/m, /^\s*(public|private|protected) (static )?(final )?(class|interface|enum|record) \w+/m, /\bSystem\.out\./, /@Override/],
  csharp: [/^using System[\w.]*;\s*$/m, /^\s*namespace [\w.]+/m, /^\s*(public|internal|private) (static |sealed |partial )*(class|interface|struct|record) \w+/m, /\{\s*get;\s*(set;)?\s*\}/],
  cpp: [/^#include\s*[<"]/m, /\bstd::/, /^#(define|ifndef|pragma)\b/m, /^\s*(template\s*<|namespace \w+\s*\{)/m],
  ruby: [/^\s*def \w+[?!]?(\(.*\))?\s*$/m, /^\s*end\s*$/m, /^\s*require(_relative)? ['"]/m, /^\s*(module|class) [A-Z]\w*(\s*<\s*[\w:]+)?\s*$/m],
  php: [/<\?php/, /\$this->/, /^\s*(public |private |protected )?function \w+\(/m, /^namespace [\w\\]+;/m],
  typescript: [/^\s*(export )?interface \w+/m, /:\s*(string|number|boolean|void)\b/, /^import .* from ['"]/m, /^\s*(export )?(type|enum) \w+/m, /\b(private|public|readonly) \w+:/],
  tsx: [],
  javascript: [/\brequire\(['"]/, /\bmodule\.exports\b/, /^\s*(export )?(async )?function \w+\(/m, /^\s*(const|let|var) \w+ = /m, /=> \{/],
  bash: [/^\s*(if|while) \[\[? /m, /^\s*fi\s*$/m, /^\s*\w+\(\)\s*\{/m, /^\s*(export|local) \w+=/m, /\$\{\w+/],
};

export function languageFromContent(code: string): LanguageSpec | undefined {
  const head = code.slice(0, 200);
  const shebang = /^#![^\n]*/.exec(head);
  if (shebang) {
    for (const [pattern, id] of SHEBANGS) if (pattern.test(shebang[0])) return languageById(id);
  }
  const sample = code.length > 20_000 ? code.slice(0, 20_000) : code;
  let best: LanguageId | undefined;
  let bestScore = 1;
  for (const [id, signs] of Object.entries(SIGNS) as [LanguageId, readonly RegExp[]][]) {
    const score = signs.filter((sign) => sign.test(sample)).length;
    if (score > bestScore) {
      best = id;
      bestScore = score;
    }
  }
  return best === undefined ? undefined : languageById(best);
}

/**
 * The languages code_graph outlines: which grammar file parses each, which query finds its
 * definitions and references, how its bodies are delimited, and which file names it owns.
 */
import { BASH_QUERY } from './queries/bash';
import { CPP_QUERY } from './queries/cpp';
import { CSHARP_QUERY } from './queries/csharp';
import { GO_QUERY } from './queries/go';
import { JAVA_QUERY } from './queries/java';
import { JAVASCRIPT_QUERY } from './queries/javascript';
import { PHP_QUERY } from './queries/php';
import { PYTHON_QUERY } from './queries/python';
import { RUBY_QUERY } from './queries/ruby';
import { RUST_QUERY } from './queries/rust';
import { TYPESCRIPT_QUERY } from './queries/typescript';

export type LanguageId = 'typescript' | 'tsx' | 'javascript' | 'python' | 'go' | 'rust' | 'java' | 'csharp' | 'cpp' | 'ruby' | 'php' | 'bash';

/**
 * How a body is delimited, which decides the lines an elision may take:
 * `braces` keeps the opening and closing brace lines, `indented` keeps the signature (and a
 * Python docstring) and takes the rest of the block, `keyword-end` keeps the `end` line.
 */
export type BodyStyle = 'braces' | 'indented' | 'keyword-end';

export interface LanguageSpec {
  readonly id: LanguageId;
  /** The grammar's file name, as `@vscode/tree-sitter-wasm` ships it. */
  readonly grammarFile: string;
  /** File name endings (lower case, with the dot) that mean this language. */
  readonly extensions: readonly string[];
  /** Tree-sitter query for definitions and references. */
  readonly query: string;
  readonly bodyStyle: BodyStyle;
  /**
   * Names of a class's constructor; a kept method keeps its class's constructor as context.
   * `<class>` stands for the class's own name (Java, C#, C++).
   */
  readonly constructorNames: readonly string[];
}

export const LANGUAGES: readonly LanguageSpec[] = [
  { id: 'typescript', grammarFile: 'tree-sitter-typescript.wasm', extensions: ['.ts', '.mts', '.cts'], query: TYPESCRIPT_QUERY, bodyStyle: 'braces', constructorNames: ['constructor'] },
  { id: 'tsx', grammarFile: 'tree-sitter-tsx.wasm', extensions: ['.tsx'], query: TYPESCRIPT_QUERY, bodyStyle: 'braces', constructorNames: ['constructor'] },
  { id: 'javascript', grammarFile: 'tree-sitter-javascript.wasm', extensions: ['.js', '.mjs', '.cjs', '.jsx'], query: JAVASCRIPT_QUERY, bodyStyle: 'braces', constructorNames: ['constructor'] },
  { id: 'python', grammarFile: 'tree-sitter-python.wasm', extensions: ['.py', '.pyi', '.pyw'], query: PYTHON_QUERY, bodyStyle: 'indented', constructorNames: ['__init__', '__new__', '__post_init__'] },
  { id: 'go', grammarFile: 'tree-sitter-go.wasm', extensions: ['.go'], query: GO_QUERY, bodyStyle: 'braces', constructorNames: [] },
  { id: 'rust', grammarFile: 'tree-sitter-rust.wasm', extensions: ['.rs'], query: RUST_QUERY, bodyStyle: 'braces', constructorNames: ['new'] },
  { id: 'java', grammarFile: 'tree-sitter-java.wasm', extensions: ['.java'], query: JAVA_QUERY, bodyStyle: 'braces', constructorNames: ['<class>'] },
  { id: 'csharp', grammarFile: 'tree-sitter-c-sharp.wasm', extensions: ['.cs'], query: CSHARP_QUERY, bodyStyle: 'braces', constructorNames: ['<class>'] },
  { id: 'cpp', grammarFile: 'tree-sitter-cpp.wasm', extensions: ['.cpp', '.cc', '.cxx', '.c++', '.hpp', '.hh', '.hxx', '.h', '.c', '.ipp', '.inl'], query: CPP_QUERY, bodyStyle: 'braces', constructorNames: ['<class>'] },
  { id: 'ruby', grammarFile: 'tree-sitter-ruby.wasm', extensions: ['.rb', '.rake', '.gemspec'], query: RUBY_QUERY, bodyStyle: 'keyword-end', constructorNames: ['initialize'] },
  { id: 'php', grammarFile: 'tree-sitter-php.wasm', extensions: ['.php', '.phtml'], query: PHP_QUERY, bodyStyle: 'braces', constructorNames: ['__construct'] },
  { id: 'bash', grammarFile: 'tree-sitter-bash.wasm', extensions: ['.sh', '.bash', '.zsh'], query: BASH_QUERY, bodyStyle: 'braces', constructorNames: [] },
];

const BY_ID = new Map(LANGUAGES.map((language) => [language.id, language]));

export function languageById(id: LanguageId): LanguageSpec {
  const language = BY_ID.get(id);
  if (!language) throw new Error(`Herald: unknown language "${id}"`);
  return language;
}

/** Every grammar file code_graph can load (what a build must copy next to the runtime). */
export function grammarFiles(): string[] {
  return [...new Set(LANGUAGES.map((language) => language.grammarFile))];
}

/**
 * Definitions and references in Ruby (tree-sitter-ruby). A Ruby body has no braces: it runs
 * from the line after the signature to the line before `end`. Capture names: see `../queryCaptures.ts`.
 */
export const RUBY_QUERY = `
(method name: (_) @name body: (body_statement) @body) @definition.method
(singleton_method name: (_) @name body: (body_statement) @body) @definition.method
(class name: (_) @name body: (body_statement) @body) @definition.class
(module name: (_) @name body: (body_statement) @body) @definition.class
(call method: (identifier) @reference.call)
`;

/** Definitions and references in Python (tree-sitter-python). Capture names: see `../queryCaptures.ts`. */
export const PYTHON_QUERY = `
(function_definition name: (identifier) @name body: (block) @body) @definition.function
(class_definition name: (identifier) @name body: (block) @body) @definition.class
(call function: (identifier) @reference.call)
(call function: (attribute attribute: (identifier) @reference.call))
`;

/** Definitions and references in Go (tree-sitter-go). Capture names: see `../queryCaptures.ts`. */
export const GO_QUERY = `
(function_declaration name: (identifier) @name body: (block) @body) @definition.function
(method_declaration name: (field_identifier) @name body: (block) @body) @definition.method
(call_expression function: (identifier) @reference.call)
(call_expression function: (selector_expression field: (field_identifier) @reference.call))
`;

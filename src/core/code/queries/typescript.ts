/**
 * Definitions and references in TypeScript (tree-sitter-typescript). The TSX grammar has the
 * same node types plus JSX, so it uses this query too. Capture names: see `../queryCaptures.ts`.
 */
export const TYPESCRIPT_QUERY = `
(function_declaration name: (identifier) @name body: (statement_block) @body) @definition.function
(generator_function_declaration name: (identifier) @name body: (statement_block) @body) @definition.function
(method_definition name: (_) @name body: (statement_block) @body) @definition.method
(variable_declarator name: (identifier) @name value: (arrow_function body: (statement_block) @body)) @definition.function
(variable_declarator name: (identifier) @name value: (function_expression body: (statement_block) @body)) @definition.function
(pair key: (property_identifier) @name value: (function_expression body: (statement_block) @body)) @definition.method
(pair key: (property_identifier) @name value: (arrow_function body: (statement_block) @body)) @definition.method
(public_field_definition name: (property_identifier) @name value: (arrow_function body: (statement_block) @body)) @definition.method
(class_declaration name: (type_identifier) @name body: (class_body) @body) @definition.class
(abstract_class_declaration name: (type_identifier) @name body: (class_body) @body) @definition.class
(call_expression function: (identifier) @reference.call)
(call_expression function: (member_expression property: (property_identifier) @reference.call))
(new_expression constructor: (identifier) @reference.call)
`;

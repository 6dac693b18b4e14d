/** Definitions and references in JavaScript (tree-sitter-javascript). Capture names: see `../queryCaptures.ts`. */
export const JAVASCRIPT_QUERY = `
(function_declaration name: (identifier) @name body: (statement_block) @body) @definition.function
(generator_function_declaration name: (identifier) @name body: (statement_block) @body) @definition.function
(method_definition name: (_) @name body: (statement_block) @body) @definition.method
(variable_declarator name: (identifier) @name value: (arrow_function body: (statement_block) @body)) @definition.function
(variable_declarator name: (identifier) @name value: (function_expression body: (statement_block) @body)) @definition.function
(pair key: (property_identifier) @name value: (function_expression body: (statement_block) @body)) @definition.method
(pair key: (property_identifier) @name value: (arrow_function body: (statement_block) @body)) @definition.method
(assignment_expression left: (member_expression property: (property_identifier) @name) right: (function_expression body: (statement_block) @body)) @definition.function
(assignment_expression left: (member_expression property: (property_identifier) @name) right: (arrow_function body: (statement_block) @body)) @definition.function
(field_definition property: (property_identifier) @name value: (arrow_function body: (statement_block) @body)) @definition.method
(class_declaration name: (identifier) @name body: (class_body) @body) @definition.class
(call_expression function: (identifier) @reference.call)
(call_expression function: (member_expression property: (property_identifier) @reference.call))
(new_expression constructor: (identifier) @reference.call)
`;

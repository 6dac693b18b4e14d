/** Definitions and references in PHP (tree-sitter-php). Capture names: see `../queryCaptures.ts`. */
export const PHP_QUERY = `
(function_definition name: (name) @name body: (compound_statement) @body) @definition.function
(method_declaration name: (name) @name body: (compound_statement) @body) @definition.method
(class_declaration name: (name) @name body: (declaration_list) @body) @definition.class
(trait_declaration name: (name) @name body: (declaration_list) @body) @definition.class
(interface_declaration name: (name) @name body: (declaration_list) @body) @definition.class
(function_call_expression function: (name) @reference.call)
(member_call_expression name: (name) @reference.call)
(scoped_call_expression name: (name) @reference.call)
(object_creation_expression (name) @reference.call)
`;

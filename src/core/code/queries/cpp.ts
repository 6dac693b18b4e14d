/** Definitions and references in C++ (tree-sitter-cpp). Capture names: see `../queryCaptures.ts`. */
export const CPP_QUERY = `
(function_definition declarator: (function_declarator declarator: (_) @name) body: (compound_statement) @body) @definition.function
(function_definition declarator: (pointer_declarator declarator: (function_declarator declarator: (_) @name)) body: (compound_statement) @body) @definition.function
(function_definition declarator: (reference_declarator (function_declarator declarator: (_) @name)) body: (compound_statement) @body) @definition.function
(class_specifier name: (type_identifier) @name body: (field_declaration_list) @body) @definition.class
(struct_specifier name: (type_identifier) @name body: (field_declaration_list) @body) @definition.class
(namespace_definition name: (namespace_identifier) @name body: (declaration_list) @body) @definition.class
(call_expression function: (identifier) @reference.call)
(call_expression function: (field_expression field: (field_identifier) @reference.call))
(call_expression function: (qualified_identifier name: (identifier) @reference.call))
`;

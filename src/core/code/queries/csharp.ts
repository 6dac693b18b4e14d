/** Definitions and references in C# (tree-sitter-c-sharp). Capture names: see `../queryCaptures.ts`. */
export const CSHARP_QUERY = `
(method_declaration name: (identifier) @name body: (block) @body) @definition.method
(constructor_declaration name: (identifier) @name body: (block) @body) @definition.method
(local_function_statement name: (identifier) @name body: (block) @body) @definition.function
(class_declaration name: (identifier) @name body: (declaration_list) @body) @definition.class
(struct_declaration name: (identifier) @name body: (declaration_list) @body) @definition.class
(interface_declaration name: (identifier) @name body: (declaration_list) @body) @definition.class
(record_declaration name: (identifier) @name body: (declaration_list) @body) @definition.class
(invocation_expression function: (identifier) @reference.call)
(invocation_expression function: (member_access_expression name: (identifier) @reference.call))
(object_creation_expression type: (identifier) @reference.call)
`;

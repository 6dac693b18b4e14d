/** Definitions and references in Java (tree-sitter-java). Capture names: see `../queryCaptures.ts`. */
export const JAVA_QUERY = `
(method_declaration name: (identifier) @name body: (block) @body) @definition.method
(constructor_declaration name: (identifier) @name body: (constructor_body) @body) @definition.method
(class_declaration name: (identifier) @name body: (class_body) @body) @definition.class
(interface_declaration name: (identifier) @name body: (interface_body) @body) @definition.class
(enum_declaration name: (identifier) @name body: (enum_body) @body) @definition.class
(record_declaration name: (identifier) @name body: (class_body) @body) @definition.class
(method_invocation name: (identifier) @reference.call)
(object_creation_expression type: (type_identifier) @reference.call)
`;

/** Definitions and references in Rust (tree-sitter-rust). Capture names: see `../queryCaptures.ts`. */
export const RUST_QUERY = `
(function_item name: (identifier) @name body: (block) @body) @definition.function
(impl_item type: (_) @name body: (declaration_list) @body) @definition.class
(trait_item name: (type_identifier) @name body: (declaration_list) @body) @definition.class
(mod_item name: (identifier) @name body: (declaration_list) @body) @definition.class
(call_expression function: (identifier) @reference.call)
(call_expression function: (field_expression field: (field_identifier) @reference.call))
(call_expression function: (scoped_identifier name: (identifier) @reference.call))
(macro_invocation macro: (identifier) @reference.call)
`;

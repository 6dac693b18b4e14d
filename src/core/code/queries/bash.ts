/** Definitions and references in Bash (tree-sitter-bash). Capture names: see `../queryCaptures.ts`. */
export const BASH_QUERY = `
(function_definition name: (word) @name body: (compound_statement) @body) @definition.function
(command name: (command_name (word) @reference.call))
`;

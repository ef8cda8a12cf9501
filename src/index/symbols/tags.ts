/**
 * Tag queries per language, in tree-sitter's tags convention: `@name` is the symbol's name,
 * `@definition.<kind>` the whole definition, `@reference.call` / `@reference.import` uses.
 * `@definition.impl` (Rust) marks a container that names its methods but is not a symbol.
 * Variables count only at module level: locals are not worth a symbol.
 */

const TS_COMMON = `
(function_declaration name: (identifier) @name) @definition.function
(generator_function_declaration name: (identifier) @name) @definition.function
(method_definition name: (property_identifier) @name) @definition.method
(program (lexical_declaration (variable_declarator name: (identifier) @name value: [(arrow_function) (function_expression)])) @definition.function)
(export_statement (lexical_declaration (variable_declarator name: (identifier) @name value: [(arrow_function) (function_expression)])) @definition.function)
(program (lexical_declaration (variable_declarator name: (identifier) @name)) @definition.variable)
(export_statement (lexical_declaration (variable_declarator name: (identifier) @name)) @definition.variable)
(program (variable_declaration (variable_declarator name: (identifier) @name)) @definition.variable)
(call_expression function: [(identifier) @name (member_expression property: (property_identifier) @name)]) @reference.call
(import_statement source: (string) @name) @reference.import
`;

const TYPESCRIPT = `${TS_COMMON}
(class_declaration name: (type_identifier) @name) @definition.class
(abstract_class_declaration name: (type_identifier) @name) @definition.class
(interface_declaration name: (type_identifier) @name) @definition.interface
(type_alias_declaration name: (type_identifier) @name) @definition.type
(enum_declaration name: (identifier) @name) @definition.enum
(internal_module name: (identifier) @name) @definition.module
`;

const JAVASCRIPT = `${TS_COMMON}
(class_declaration name: (identifier) @name) @definition.class
`;

const C_COMMON = `
(function_definition declarator: (function_declarator declarator: (identifier) @name)) @definition.function
(function_definition declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))) @definition.function
(struct_specifier name: (type_identifier) @name body: (_)) @definition.class
(union_specifier name: (type_identifier) @name body: (_)) @definition.class
(enum_specifier name: (type_identifier) @name body: (_)) @definition.enum
(type_definition declarator: (type_identifier) @name) @definition.type
(preproc_def name: (identifier) @name) @definition.constant
(preproc_function_def name: (identifier) @name) @definition.function
(call_expression function: (identifier) @name) @reference.call
(preproc_include path: (_) @name) @reference.import
`;

export const TAG_QUERIES: Record<string, string> = {
  typescript: TYPESCRIPT,
  tsx: TYPESCRIPT,
  javascript: JAVASCRIPT,
  python: `
(class_definition name: (identifier) @name) @definition.class
(function_definition name: (identifier) @name) @definition.function
(module (expression_statement (assignment left: (identifier) @name))) @definition.variable
(call function: [(identifier) @name (attribute attribute: (identifier) @name)]) @reference.call
(import_statement name: (dotted_name) @name) @reference.import
(import_from_statement module_name: (dotted_name) @name) @reference.import
`,
  go: `
(function_declaration name: (identifier) @name) @definition.function
(method_declaration name: (field_identifier) @name) @definition.method
(type_spec name: (type_identifier) @name type: (struct_type)) @definition.class
(type_spec name: (type_identifier) @name type: (interface_type)) @definition.interface
(type_spec name: (type_identifier) @name) @definition.type
(const_spec name: (identifier) @name) @definition.constant
(var_spec name: (identifier) @name) @definition.variable
(call_expression function: [(identifier) @name (selector_expression field: (field_identifier) @name)]) @reference.call
(import_spec path: (interpreted_string_literal) @name) @reference.import
`,
  rust: `
(function_item name: (identifier) @name) @definition.function
(struct_item name: (type_identifier) @name) @definition.class
(enum_item name: (type_identifier) @name) @definition.enum
(trait_item name: (type_identifier) @name) @definition.interface
(type_item name: (type_identifier) @name) @definition.type
(mod_item name: (identifier) @name) @definition.module
(const_item name: (identifier) @name) @definition.constant
(static_item name: (identifier) @name) @definition.variable
(impl_item type: (type_identifier) @name) @definition.impl
(call_expression function: [(identifier) @name (field_expression field: (field_identifier) @name) (scoped_identifier name: (identifier) @name)]) @reference.call
(use_declaration argument: (_) @name) @reference.import
`,
  java: `
(class_declaration name: (identifier) @name) @definition.class
(interface_declaration name: (identifier) @name) @definition.interface
(enum_declaration name: (identifier) @name) @definition.enum
(record_declaration name: (identifier) @name) @definition.class
(method_declaration name: (identifier) @name) @definition.method
(constructor_declaration name: (identifier) @name) @definition.method
(field_declaration declarator: (variable_declarator name: (identifier) @name)) @definition.variable
(method_invocation name: (identifier) @name) @reference.call
(import_declaration (scoped_identifier) @name) @reference.import
`,
  c: C_COMMON,
  cpp: `${C_COMMON}
(function_definition declarator: (function_declarator declarator: (field_identifier) @name)) @definition.method
(function_definition declarator: (function_declarator declarator: (qualified_identifier name: (identifier) @name))) @definition.method
(class_specifier name: (type_identifier) @name body: (_)) @definition.class
(namespace_definition name: (namespace_identifier) @name) @definition.module
`,
  csharp: `
(class_declaration name: (identifier) @name) @definition.class
(interface_declaration name: (identifier) @name) @definition.interface
(struct_declaration name: (identifier) @name) @definition.class
(enum_declaration name: (identifier) @name) @definition.enum
(record_declaration name: (identifier) @name) @definition.class
(method_declaration name: (identifier) @name) @definition.method
(namespace_declaration name: (_) @name) @definition.module
(invocation_expression function: [(identifier) @name (member_access_expression name: (identifier) @name)]) @reference.call
`,
  ruby: `
(class name: (constant) @name) @definition.class
(module name: (constant) @name) @definition.module
(method name: (identifier) @name) @definition.method
(singleton_method name: (identifier) @name) @definition.method
(call method: (identifier) @name) @reference.call
`,
  php: `
(class_declaration name: (name) @name) @definition.class
(interface_declaration name: (name) @name) @definition.interface
(trait_declaration name: (name) @name) @definition.interface
(function_definition name: (name) @name) @definition.function
(method_declaration name: (name) @name) @definition.method
(function_call_expression function: (name) @name) @reference.call
`,
  kotlin: `
(class_declaration (type_identifier) @name) @definition.class
(class_declaration "interface" (type_identifier) @name) @definition.interface
(class_declaration (type_identifier) @name (enum_class_body)) @definition.enum
(object_declaration (type_identifier) @name) @definition.class
(function_declaration (simple_identifier) @name) @definition.function
(source_file (property_declaration (variable_declaration (simple_identifier) @name)) @definition.variable)
(call_expression (simple_identifier) @name) @reference.call
`,
  swift: `
(class_declaration name: (type_identifier) @name) @definition.class
(class_declaration name: (type_identifier) @name body: (enum_class_body)) @definition.enum
(protocol_declaration name: (type_identifier) @name) @definition.interface
(protocol_function_declaration name: (simple_identifier) @name) @definition.function
(class_declaration name: (user_type (type_identifier) @name)) @definition.impl
(function_declaration name: (simple_identifier) @name) @definition.function
(call_expression (simple_identifier) @name) @reference.call
`,
  scala: `
(class_definition name: (identifier) @name) @definition.class
(object_definition name: (identifier) @name) @definition.class
(trait_definition name: (identifier) @name) @definition.interface
(function_definition name: (identifier) @name) @definition.function
(call_expression function: (identifier) @name) @reference.call
`,
  lua: `
(function_definition_statement name: (identifier) @name) @definition.function
(function_definition_statement name: (variable field: (identifier) @name)) @definition.function
(local_function_definition_statement name: (identifier) @name) @definition.function
`,
  bash: `
(function_definition name: (word) @name) @definition.function
(command name: (command_name) @name) @reference.call
`,
};

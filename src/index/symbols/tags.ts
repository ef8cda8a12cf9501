/**
 * Tag queries per language, in tree-sitter's tags convention: `@name` is the symbol's name,
 * `@definition.<kind>` the whole definition, `@reference.call` / `@reference.import` uses.
 * `@definition.impl` (Rust) marks a container that names its methods but is not a symbol.
 * `@receiver` names the type a definition belongs to when it is declared outside that type (a Go
 * method, C++ `int Point::norm()`, Lua `function M.run`): its parent.
 * The `@definition` capture is on the definition itself, never on what holds it (a capture on
 * Python's `module` once gave every module-level variable the whole file as its range).
 * Variables count only at module (or class) level, in `if` and `try` blocks too: locals are not
 * worth a symbol (the extractor drops a variable that a function encloses).
 */

const TS_COMMON = `
(function_declaration name: (identifier) @name) @definition.function
(generator_function_declaration name: (identifier) @name) @definition.function
(method_definition name: [(property_identifier) (private_property_identifier) (computed_property_name)] @name) @definition.method
(function_expression name: (identifier) @name) @definition.function
(program (lexical_declaration (variable_declarator name: (identifier) @name value: [(arrow_function) (function_expression)])) @definition.function)
(export_statement (lexical_declaration (variable_declarator name: (identifier) @name value: [(arrow_function) (function_expression)])) @definition.function)
(expression_statement (assignment_expression left: (member_expression object: (_) @receiver property: (property_identifier) @name) right:
  [(arrow_function) (function_expression)]) @definition.function)
(program (lexical_declaration (variable_declarator name: (identifier) @name)) @definition.variable)
(export_statement (lexical_declaration (variable_declarator name: (identifier) @name)) @definition.variable)
(program (variable_declaration (variable_declarator name: (identifier) @name)) @definition.variable)
(call_expression function: [(identifier) @name (member_expression property: (property_identifier) @name)]) @reference.call
(import_statement source: (string) @name) @reference.import
`;

const TYPESCRIPT = `${TS_COMMON}
(function_signature name: (identifier) @name) @definition.function
(class_declaration name: (type_identifier) @name) @definition.class
(class name: (type_identifier) @name) @definition.class
(method_signature name: (property_identifier) @name) @definition.method
(construct_signature "new" @name) @definition.method
(abstract_method_signature name: (property_identifier) @name) @definition.method
(abstract_class_declaration name: (type_identifier) @name) @definition.class
(interface_declaration name: (type_identifier) @name) @definition.interface
(type_alias_declaration name: (type_identifier) @name) @definition.type
(enum_declaration name: (identifier) @name) @definition.enum
(internal_module name: (identifier) @name) @definition.module
`;

const JAVASCRIPT = `${TS_COMMON}
(class_declaration name: (identifier) @name) @definition.class
(class name: (identifier) @name) @definition.class
`;

const C_COMMON = `
(function_definition declarator: (function_declarator declarator: (identifier) @name)) @definition.function
(function_definition declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))) @definition.function
(function_definition declarator: (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator:
  (identifier) @name)))) @definition.function
(function_definition type: (type_identifier) @name declarator: (parenthesized_declarator)) @definition.function
(struct_specifier name: (type_identifier) @name body: (_)) @definition.struct
(union_specifier name: (type_identifier) @name body: (_)) @definition.union
(enum_specifier name: (type_identifier) @name body: (_)) @definition.enum
(type_definition declarator: (type_identifier) @name) @definition.type
(type_definition declarator: (function_declarator declarator: (parenthesized_declarator [(type_identifier) @name (pointer_declarator declarator:
  (type_identifier) @name)]))) @definition.type
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
(expression_statement (assignment left: (identifier) @name)) @definition.variable
(expression_statement (assignment left: (pattern_list (identifier) @name))) @definition.variable
(call function: [(identifier) @name (attribute attribute: (identifier) @name)]) @reference.call
(import_statement name: (dotted_name) @name) @reference.import
(import_from_statement module_name: (dotted_name) @name) @reference.import
`,
  go: `
(function_declaration name: (identifier) @name) @definition.function
(method_declaration receiver: (parameter_list (parameter_declaration type: [(type_identifier) @receiver (pointer_type (type_identifier) @receiver)
  (generic_type type: (type_identifier) @receiver) (pointer_type (generic_type type: (type_identifier) @receiver))])) name:
  (field_identifier) @name) @definition.method
(method_declaration name: (field_identifier) @name) @definition.method
(type_spec name: (type_identifier) @name type: (struct_type)) @definition.struct
(type_spec name: (type_identifier) @name type: (interface_type)) @definition.interface
(type_spec name: (type_identifier) @name) @definition.type
(source_file (const_declaration (const_spec name: (identifier) @name) @definition.constant))
(source_file (var_declaration (var_spec name: (identifier) @name) @definition.variable))
(source_file (var_declaration (var_spec_list (var_spec name: (identifier) @name) @definition.variable)))
(call_expression function: [(identifier) @name (selector_expression field: (field_identifier) @name)]) @reference.call
(import_spec path: (interpreted_string_literal) @name) @reference.import
`,
  rust: `
(function_item name: (identifier) @name) @definition.function
(struct_item name: (type_identifier) @name) @definition.struct
(union_item name: (type_identifier) @name) @definition.union
(enum_item name: (type_identifier) @name) @definition.enum
(enum_variant name: (identifier) @name) @definition.enum_member
(field_declaration name: (field_identifier) @name) @definition.field
(trait_item name: (type_identifier) @name) @definition.interface
(function_signature_item name: (identifier) @name) @definition.function
(type_item name: (type_identifier) @name) @definition.type
(mod_item name: (identifier) @name) @definition.module
(const_item name: (identifier) @name) @definition.constant
(static_item name: (identifier) @name) @definition.variable
(macro_definition name: (identifier) @name) @definition.macro
(impl_item type: [(type_identifier) @name (generic_type type: (type_identifier) @name) (scoped_type_identifier name: (type_identifier) @name)
  (generic_type type: (scoped_type_identifier name: (type_identifier) @name)) (primitive_type) @name]) @definition.impl
(impl_item type: (reference_type type: [(type_identifier) @name (generic_type type: (type_identifier) @name) (scoped_type_identifier name:
  (type_identifier) @name) (generic_type type: (scoped_type_identifier name: (type_identifier) @name)) (primitive_type) @name])) @definition.impl
(impl_item type: [(array_type) (tuple_type) (pointer_type) (dynamic_type) (bounded_type) (function_type) (unit_type) (never_type)] @name) @definition.impl
(impl_item type: (reference_type type: [(array_type) (tuple_type) (pointer_type) (dynamic_type) (bounded_type) (function_type) (reference_type)] @name))
  @definition.impl
(call_expression function: [(identifier) @name (field_expression field: (field_identifier) @name) (scoped_identifier name: (identifier) @name)]) @reference.call
(use_declaration argument: (_) @name) @reference.import
`,
  java: `
(class_declaration name: (identifier) @name) @definition.class
(interface_declaration name: (identifier) @name) @definition.interface
(annotation_type_declaration name: (identifier) @name) @definition.annotation
(annotation_type_element_declaration name: (identifier) @name) @definition.method
(enum_declaration name: (identifier) @name) @definition.enum
(enum_constant name: (identifier) @name) @definition.enum_member
(record_declaration name: (identifier) @name) @definition.record
(record_declaration parameters: (formal_parameters (formal_parameter name: (identifier) @name) @definition.field))
(method_declaration name: (identifier) @name) @definition.method
(constructor_declaration name: (identifier) @name) @definition.method
(compact_constructor_declaration name: (identifier) @name) @definition.method
(field_declaration declarator: (variable_declarator name: (identifier) @name)) @definition.variable
(method_invocation name: (identifier) @name) @reference.call
(import_declaration (scoped_identifier) @name) @reference.import
`,
  c: C_COMMON,
  cpp: `${C_COMMON}
(function_definition declarator: (function_declarator declarator: [(field_identifier) (destructor_name) (operator_name)] @name)) @definition.method
(function_definition declarator: (_ declarator: (function_declarator declarator: [(field_identifier) (destructor_name)
  (operator_name)] @name))) @definition.method
(function_definition declarator: (function_declarator declarator: (qualified_identifier scope: (namespace_identifier) @receiver name: [(identifier)
  (destructor_name) (operator_name)] @name))) @definition.method
(function_definition declarator: (_ declarator: (function_declarator declarator: (qualified_identifier scope: (namespace_identifier) @receiver name:
  [(identifier) (destructor_name) (operator_name)] @name)))) @definition.method
(function_definition declarator: (function_declarator declarator: (qualified_identifier name: (identifier) @name))) @definition.method
(function_definition declarator: (reference_declarator (function_declarator declarator: (identifier) @name))) @definition.function
(function_definition declarator: (reference_declarator (function_declarator declarator: [(field_identifier) (operator_name)] @name))) @definition.method
(function_definition declarator: (reference_declarator (function_declarator declarator: (qualified_identifier scope:
  (namespace_identifier) @receiver name: [(identifier) (operator_name)] @name)))) @definition.method
(function_definition declarator: (_ declarator: (_ declarator: (function_declarator declarator: [(identifier) (field_identifier)] @name)))) @definition.function
(class_specifier name: (type_identifier) @name body: (_)) @definition.class
(namespace_definition name: (namespace_identifier) @name) @definition.module
`,
  csharp: `
(class_declaration name: (identifier) @name) @definition.class
(interface_declaration name: (identifier) @name) @definition.interface
(struct_declaration name: (identifier) @name) @definition.struct
(enum_declaration name: (identifier) @name) @definition.enum
(enum_member_declaration name: (identifier) @name) @definition.enum_member
(record_declaration name: (identifier) @name) @definition.record
(method_declaration name: (identifier) @name) @definition.method
(constructor_declaration name: (identifier) @name) @definition.method
(property_declaration name: (identifier) @name) @definition.variable
(field_declaration (variable_declaration (variable_declarator name: (identifier) @name))) @definition.variable
(namespace_declaration name: (_) @name) @definition.module
(invocation_expression function: [(identifier) @name (member_access_expression name: (identifier) @name)]) @reference.call
`,
  ruby: `
(class name: (constant) @name) @definition.class
(class name: (scope_resolution scope: (_) @receiver name: (constant) @name)) @definition.class
(module name: (constant) @name) @definition.module
(module name: (scope_resolution scope: (_) @receiver name: (constant) @name)) @definition.module
(program (assignment left: (constant) @name) @definition.constant)
(body_statement (assignment left: (constant) @name) @definition.constant)
(method name: [(identifier) (operator) (setter)] @name) @definition.method
(singleton_method name: (identifier) @name) @definition.method
(call method: (identifier) @name) @reference.call
`,
  php: `
(namespace_definition name: (namespace_name) @name) @definition.module
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
(companion_object (type_identifier) @name) @definition.class
(companion_object "companion" @name) @definition.class
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
(init_declaration "init" @name) @definition.method
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
(function_declaration name: (identifier) @name) @definition.function
(function_declaration name: (dot_index_expression table: (identifier) @receiver field: (identifier) @name)) @definition.function
(function_declaration name: (method_index_expression table: (identifier) @receiver method: (identifier) @name)) @definition.method
(function_call name: [(identifier) @name (dot_index_expression field: (identifier) @name) (method_index_expression method: (identifier) @name)]) @reference.call
`,
  bash: `
(function_definition name: (word) @name) @definition.function
(command name: (command_name) @name) @reference.call
`,
};

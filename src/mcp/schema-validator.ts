/**
 * JSON Schema validation of tool arguments and tool output, kept apart from the handler API: a
 * tool declares plain JSON Schema, and this module decides how to check it. A schema without
 * `$schema` is 2020-12 (MCP 2025-11-25 basic §JSON Schema Usage); draft-07 is honoured when
 * declared; any other dialect is refused with a clear error instead of being guessed at.
 */
import { Ajv, type ErrorObject as AjvError, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { clipText } from '../jsonrpc/index.js';

const DRAFT_2020_12 = new Set(['https://json-schema.org/draft/2020-12/schema', 'https://json-schema.org/draft/2020-12/schema#']);
const DRAFT_07 = new Set(['http://json-schema.org/draft-07/schema', 'http://json-schema.org/draft-07/schema#']);

export class UnsupportedSchemaDialectError extends Error {
  readonly code = 'SEXTANT_ERR_SCHEMA_DIALECT';
  constructor(dialect: string) {
    super(`Unsupported JSON Schema dialect "${dialect}": use 2020-12 (the default) or draft-07`);
    this.name = 'UnsupportedSchemaDialectError';
  }
}

/** Validation problems described in an answer; the rest are counted. */
const MAX_DESCRIBED_ERRORS = 10;
/** The longest argument name quoted in a problem. */
const MAX_QUOTED_NAME_CHARS = 100;

export type ValidationResult = { valid: true } | { valid: false; errors: string[] };

export class SchemaValidator {
  // `strict: false` because MCP schemas may carry annotations (title, examples, x-*) that ajv's
  // strict mode rejects; they do not change what is valid.
  // Made on first use: building one compiles its meta-schemas, a cost the first answer should not pay.
  #ajv2020: Ajv2020 | undefined;
  #ajv07: Ajv | undefined;
  readonly #compiled = new WeakMap<object, ValidateFunction>();

  /** Throws UnsupportedSchemaDialectError unless `schema` is 2020-12 (the default) or draft-07: cheap, no compiling. */
  static checkDialect(schema: Record<string, unknown>): void {
    const dialect = schema.$schema;
    if (dialect === undefined || (typeof dialect === 'string' && (DRAFT_2020_12.has(dialect) || DRAFT_07.has(dialect)))) return;
    throw new UnsupportedSchemaDialectError(String(dialect));
  }

  /** Compiles (once per schema object) and throws for an unsupported dialect or an invalid schema. */
  compile(schema: Record<string, unknown>): ValidateFunction {
    const cached = this.#compiled.get(schema);
    if (cached) return cached;
    const dialect = schema.$schema;
    let validate: ValidateFunction;
    if (dialect === undefined || (typeof dialect === 'string' && DRAFT_2020_12.has(dialect))) {
      validate = (this.#ajv2020 ??= new Ajv2020({ allErrors: true, strict: false, validateFormats: false })).compile(schema);
    } else if (typeof dialect === 'string' && DRAFT_07.has(dialect)) {
      validate = (this.#ajv07 ??= new Ajv({ allErrors: true, strict: false, validateFormats: false })).compile(schema);
    } else {
      throw new UnsupportedSchemaDialectError(String(dialect));
    }
    this.#compiled.set(schema, validate);
    return validate;
  }

  validate(schema: Record<string, unknown>, value: unknown): ValidationResult {
    // Many unknown arguments are counted by hand: ajv would build an error object for each one.
    const unknown = unknownProperties(schema, value);
    if (unknown.count > MAX_DESCRIBED_ERRORS) {
      const described = unknown.first.map((name) => `unknown argument "${clipText(name, MAX_QUOTED_NAME_CHARS)}"`);
      return { valid: false, errors: [...described, `and ${unknown.count - described.length} more unknown arguments`] };
    }
    const validate = this.compile(schema);
    if (validate(value)) return { valid: true };
    // Only the first few are described: 700,000 unknown arguments are not 700,000 lines of answer.
    const errors = validate.errors ?? [];
    const described = errors.slice(0, MAX_DESCRIBED_ERRORS).map(describeError);
    if (errors.length > MAX_DESCRIBED_ERRORS) described.push(`and ${errors.length - MAX_DESCRIBED_ERRORS} more problems`);
    return { valid: false, errors: described };
  }
}

/** The keys of `value` a closed object schema does not list: how many, and the first few. */
function unknownProperties(schema: Record<string, unknown>, value: unknown): { count: number; first: string[] } {
  const known = schema.properties;
  if (
    schema.additionalProperties !== false ||
    typeof known !== 'object' ||
    known === null ||
    typeof value !== 'object' ||
    value === null ||
    Array.isArray(value)
  )
    return { count: 0, first: [] };
  let count = 0;
  const first: string[] = [];
  for (const key of Object.keys(value)) {
    if (Object.hasOwn(known, key)) continue;
    if (count++ < MAX_DESCRIBED_ERRORS) first.push(key);
  }
  return { count, first };
}

/** One line a problem, phrased so that a model reading it knows which argument to fix. */
function describeError(error: AjvError): string {
  const where = error.instancePath === '' ? 'arguments' : `argument "${clipText(error.instancePath.slice(1).replaceAll('/', '.'), MAX_QUOTED_NAME_CHARS)}"`;
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return `missing required argument "${String(params.missingProperty)}"`;
    case 'additionalProperties':
      return `unknown argument "${clipText(String(params.additionalProperty), MAX_QUOTED_NAME_CHARS)}"`;
    case 'enum':
      return `${where} must be one of ${JSON.stringify(params.allowedValues)}`;
    default:
      return `${where} ${error.message ?? 'is invalid'}`;
  }
}

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Result } from '../../src/jsonrpc/index.js';
import { SchemaValidator } from '../../src/mcp/schema-validator.js';
import { createSextantServer } from '../../src/server.js';
import { connect } from '../helpers/connect.js';
import { REVISIONS, type Revision } from '../helpers/schema.js';

/**
 * Tool schemas every client accepts: no `type` given as an array anywhere (`["string", "null"]`
 * is legal JSON Schema, but clients that map schemas onto a single-`type` dialect — Gemini's
 * function declarations, for one — reject the tool or drop the constraint). What the MCP
 * Inspector's `--strict` portability check reports as warnings, walked over every schema each
 * revision's tools/list advertises.
 */
type Json = Record<string, unknown>;
type Tool = { name: string; inputSchema: Json; outputSchema?: Json };

/** Every place under `schema` where `type` is an array, as a path. */
function typeArrays(schema: unknown, path: string, found: string[]): string[] {
  if (Array.isArray(schema)) schema.forEach((item, index) => typeArrays(item, `${path}[${index}]`, found));
  else if (schema !== null && typeof schema === 'object') {
    for (const [key, value] of Object.entries(schema)) {
      if (key === 'type' && Array.isArray(value)) found.push(`${path}.type`);
      // `properties` and the like are maps of names to schemas; `enum` and `const` hold values, not schemas.
      else if (key !== 'enum' && key !== 'const' && key !== 'examples' && key !== 'default') typeArrays(value, `${path}.${key}`, found);
    }
  }
  return found;
}

const MODERN: Revision = '2026-07-28';
const modernMeta = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'portability-test', version: '1' },
};

/** Every tool a client of `revision` is shown, page by page. */
async function toolsOf(revision: Revision): Promise<Tool[]> {
  const c = connect(createSextantServer());
  if (revision !== MODERN) await c.initialize(revision);
  const tools: Tool[] = [];
  let cursor: unknown;
  do {
    const params: Json = revision === MODERN ? { _meta: modernMeta } : {};
    if (cursor !== undefined) params.cursor = cursor;
    const page: Result = await c.client.request('tools/list', params);
    tools.push(...(page.tools as Tool[]));
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  assert.equal(c.checker.problems, [], `${revision}: tools/list is valid against its schema`);
  c.close();
  return tools;
}

test("no tool schema in any revision gives `type` as an array (the Inspector's --strict portability warnings)", async () => {
  let outputSchemas = 0;
  for (const revision of [...REVISIONS, MODERN]) {
    const tools = await toolsOf(revision);
    assert.ok(tools.length >= 10, `${revision}: ${tools.length} tools`);
    const problems: string[] = [];
    for (const tool of tools) {
      typeArrays(tool.inputSchema, `${tool.name}.inputSchema`, problems);
      if (tool.outputSchema) {
        outputSchemas++;
        typeArrays(tool.outputSchema, `${tool.name}.outputSchema`, problems);
      }
    }
    assert.equal(problems, [], revision);
  }
  // Output schemas exist from 2025-06-18 on: the walk went through them.
  assert.ok(outputSchemas >= 30, `${outputSchemas} output schemas walked`);
});

test('the walk finds a type array wherever one hides: nested properties, items, anyOf branches', () => {
  const schema = {
    type: 'object',
    properties: {
      a: { type: ['string', 'null'] },
      list: { type: 'array', items: { type: 'object', properties: { b: { type: ['number', 'null'] } } } },
      either: { anyOf: [{ type: 'string' }, { type: ['integer', 'boolean'] }] },
      fine: { anyOf: [{ type: 'string' }, { type: 'null' }], enum: [['not', 'a', 'schema']] },
    },
  };
  assert.equal(typeArrays(schema, 's', []), ['s.properties.a.type', 's.properties.list.items.properties.b.type', 's.properties.either.anyOf[1].type']);
});

test('a nullable field spelled with anyOf takes the same values as the type array did', () => {
  const validator = new SchemaValidator();
  const schema = { type: 'object', properties: { updated_at: { anyOf: [{ type: 'string' }, { type: 'null' }] } }, required: ['updated_at'] };
  assert.ok(validator.validate(schema, { updated_at: null }).valid);
  assert.ok(validator.validate(schema, { updated_at: '2026-11-26T16:00:00.000Z' }).valid);
  assert.not.ok(validator.validate(schema, { updated_at: 7 }).valid);
  assert.not.ok(validator.validate(schema, {}).valid);
});

test.run();

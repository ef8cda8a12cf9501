/**
 * Compares a replayed message with the recorded one: the same shape everywhere (keys, array
 * lengths, JSON types) and the same value where the protocol gives the value meaning (ids, codes,
 * methods, versions, content types…). Free text such as error messages may change wording.
 */
const EXACT_STRING_KEYS = new Set([
  'jsonrpc',
  'id',
  'method',
  'protocolVersion',
  'type',
  'name',
  'level',
  'logger',
  'uri',
  'uriTemplate',
  'mimeType',
  'role',
  'status',
  'protocol_version',
  'progressToken',
  'nextCursor',
  'requestId',
]);
/** Numbers that differ from run to run by nature. */
const VOLATILE_NUMBER_KEYS = new Set(['uptime_seconds', 'duration_ms', 'ranking_ms']);
/** Objects whose numbers all do: sizes on disk depend on the project's path and files' mtimes. */
const VOLATILE_NUMBER_PARENTS = new Set(['disk_bytes']);

export function compareMessages(expected: unknown, actual: unknown, path = '$'): string[] {
  const key = path.slice(path.lastIndexOf('.') + 1);
  const expectedType = jsonType(expected);
  const actualType = jsonType(actual);
  if (expectedType !== actualType) return [`${path}: expected ${expectedType} ${preview(expected)}, got ${actualType} ${preview(actual)}`];
  switch (expectedType) {
    case 'object': {
      const e = expected as Record<string, unknown>;
      const a = actual as Record<string, unknown>;
      const differences: string[] = [];
      for (const k of Object.keys(e)) {
        if (!(k in a)) differences.push(`${path}.${k}: missing (expected ${preview(e[k])})`);
        else differences.push(...compareMessages(e[k], a[k], `${path}.${k}`));
      }
      for (const k of Object.keys(a)) if (!(k in e)) differences.push(`${path}.${k}: unexpected ${preview(a[k])}`);
      return differences;
    }
    case 'array': {
      const e = expected as unknown[];
      const a = actual as unknown[];
      if (e.length !== a.length) return [`${path}: expected ${e.length} items, got ${a.length}`];
      return e.flatMap((item, index) => compareMessages(item, a[index], `${path}[${index}]`));
    }
    case 'string':
      return EXACT_STRING_KEYS.has(key) && expected !== actual ? [`${path}: expected ${preview(expected)}, got ${preview(actual)}`] : [];
    case 'number':
      return !VOLATILE_NUMBER_KEYS.has(key) && !VOLATILE_NUMBER_PARENTS.has(parentKey(path)) && expected !== actual
        ? [`${path}: expected ${preview(expected)}, got ${preview(actual)}`]
        : [];
    default:
      return expected !== actual ? [`${path}: expected ${preview(expected)}, got ${preview(actual)}`] : [];
  }
}

function parentKey(path: string): string {
  const parent = path.slice(0, path.lastIndexOf('.'));
  return parent.slice(parent.lastIndexOf('.') + 1);
}

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

function preview(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

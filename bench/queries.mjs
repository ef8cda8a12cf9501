// The queries of bench/index-search.mjs and bench/cli-vs-rg.mjs: literals rare and common, a
// phrase, case-insensitive, and regexes with and without a literal to narrow by.
export const QUERIES = [
  { name: 'literal, rare', pattern: 'kmem_cache_alloc_node', caseSensitive: true },
  { name: 'literal, common', pattern: 'EXPORT_SYMBOL_GPL', caseSensitive: true },
  { name: 'literal, phrase', pattern: 'struct file_operations', caseSensitive: true },
  { name: 'case-insensitive', pattern: 'SPIN_LOCK_IRQSAVE' },
  { name: 'regex, literal prefix', pattern: 'static int \\w+_probe\\(', regex: true, caseSensitive: true },
  { name: 'regex, alternation', pattern: 'copy_(from|to)_user', regex: true, caseSensitive: true },
  { name: 'regex, anchored', pattern: '^#include <linux/(fs|mm)\\.h>', regex: true, caseSensitive: true },
  { name: 'regex, no literal', pattern: '[0-9]{4}-[0-9]{2}-[0-9]{2}', regex: true, caseSensitive: true },
];

/**
 * Issue 29's classes on a medium tree, the Go standard library: selective identifiers, common
 * words (as an agent types them: case-insensitive), regexes with no literal to narrow by, and
 * literals beyond ASCII.
 */
export const GO_QUERIES = [
  { name: 'selective', pattern: 'ServeHTTP', caseSensitive: true },
  { name: 'selective, case-insensitive', pattern: 'readfull' },
  { name: 'common word', pattern: 'copyright' },
  { name: 'common word', pattern: 'struct' },
  { name: 'common word', pattern: 'return', caseSensitive: true },
  { name: 'common, short', pattern: 'err' },
  { name: 'regex, no literal', pattern: '[A-Z]{3}[0-9]{3}', regex: true, caseSensitive: true },
  { name: 'regex, no literal', pattern: 'x{2,}y', regex: true, caseSensitive: true },
  { name: 'regex, class only', pattern: '\\b[0-9a-f]{16}\\b', regex: true, caseSensitive: true },
  { name: 'non-ASCII literal', pattern: 'é' },
  { name: 'non-ASCII literal', pattern: '世界', caseSensitive: true },
  { name: 'non-ASCII literal', pattern: 'naïve' },
];

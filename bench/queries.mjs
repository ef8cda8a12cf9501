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

/**
 * Every symbol lookup a client can make, asked of one indexed tree through the real server:
 * outlines of every file, then, for what the outlines show, locate_symbol (exact, case-folded,
 * prefix, qualified, by kind), get_symbol_hierarchy both ways, find_related_symbols in every
 * scope and get_code_context. The answers, with the tree's path taken out, are what a change
 * of symbol store must leave exactly as they were (spec-fixtures/symbol-answers/).
 */
import { mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { call, projectHarness, sdkClient } from './projects.js';
import { type ToolResult } from './tool-result.js';

export interface Answer {
  tool: string;
  args: Record<string, unknown>;
  result: unknown;
}

function filesUnder(root: string, dir = root): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? filesUnder(root, path) : [relative(root, path)];
    });
}

interface OutlineSymbol {
  name: string;
  path: string;
  kind: string;
  qualified_name: string;
  children?: OutlineSymbol[];
}

const flatten = (symbols: OutlineSymbol[]): OutlineSymbol[] => symbols.flatMap((symbol) => [symbol, ...flatten(symbol.children ?? [])]);

/** What a tool answered, without what depends on where or when the tree was indexed. */
function normalized(result: ToolResult, root: string): unknown {
  const { updated_at: _updated, ...structured } = result.structuredContent ?? {};
  const kept = {
    content: result.content,
    structuredContent: structured,
    isError: result.isError === true,
    error: (result._meta?.['dev.sextant/error'] as { code?: string } | undefined)?.code ?? null,
  };
  return JSON.parse(JSON.stringify(kept).split(root).join('<root>'));
}

export async function symbolAnswers(root: string): Promise<Answer[]> {
  const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  const h = await projectHarness({ workspaces: [root] }, home);
  const client = await sdkClient(h.http.urls.mcp);
  const answers: Answer[] = [];
  const ask = async (tool: string, args: Record<string, unknown>): Promise<ToolResult> => {
    const result = await call(client, tool, args);
    answers.push({ tool, args, result: normalized(result, root) });
    return result;
  };
  try {
    const indexed = await call(client, 'index_repo');
    if (indexed.isError) throw new Error(indexed.content[0]?.text);
    const symbols: OutlineSymbol[] = [];
    for (const path of filesUnder(root)) {
      const outline = await ask('get_file_outline', { path });
      await ask('get_file_outline', { path, depth: 'top' });
      if (!outline.isError) symbols.push(...flatten(outline.structuredContent!.symbols as OutlineSymbol[]).map((symbol) => ({ ...symbol, path })));
    }
    const names = [...new Set(symbols.map((symbol) => symbol.name))].sort();
    for (const name of names) {
      await ask('locate_symbol', { name });
      await ask('locate_symbol', { name: name.toLowerCase(), limit: 5 });
      await ask('locate_symbol', { name: name.slice(0, 3), limit: 8 });
      await ask('locate_symbol', { name: name.slice(0, 4), kind: 'method' });
    }
    for (const query of ['gUB', 'get_user', 'ld', 'rndr', 'Svc', 'zzzz', 'x']) await ask('locate_symbol', { name: query, limit: 50 });
    for (const [n, symbol] of symbols.entries()) {
      if (symbol.qualified_name !== symbol.name) await ask('locate_symbol', { name: symbol.qualified_name });
      await ask('get_symbol_hierarchy', { symbol_name: symbol.name, path: symbol.path });
      await ask('get_symbol_hierarchy', { symbol_name: symbol.qualified_name, direction: 'descendants' });
      const scope = ['file', 'module', 'package'][n % 3]!;
      await ask(
        'find_related_symbols',
        n % 2 === 0 ? { symbol_name: symbol.name, path: symbol.path, scope, limit: 12 } : { symbol_name: symbol.qualified_name, limit: 12 },
      );
    }
    for (let n = 0; n < names.length; n += 8) {
      await ask('get_code_context', { query: `how does ${names[n]} use ${names[n + 1] ?? 'it'}`, max_tokens: 1200 });
      await ask('get_code_context', { query: names.slice(n, n + 3).join(' '), strategy: 'depth', max_tokens: 600 });
    }
    return answers;
  } finally {
    await client.close();
    await h.close();
  }
}

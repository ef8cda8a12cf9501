/**
 * `find_related_symbols`: what a symbol works with — what it calls and what calls it (from the
 * call references the symbol phase keeps), its siblings, what its file imports, and the other
 * definitions of its file, module (directory) or package, each with the relation named.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { BriefSymbol } from '../index/symbols/symbol-index.js';
import type { SymbolInfo } from '../index/symbols/types.js';
import type { ToolDefinition } from '../mcp/tools.js';
import type { Project } from '../workspace/project.js';
import type { ProjectService } from '../workspace/projects.js';
import { describeSymbol, enclosingSymbol, sameSymbol, fitCount, MAX_OUTPUT_CHARS, statusFields, STATUS_PROPERTIES, STATUS_REQUIRED, SYMBOL_SCHEMA, type Completeness } from './common.js';
import { projectTool } from './project-tool.js';
import { requireSymbols, resolveSymbol } from './symbol-tools.js';

export const DEFAULT_RELATED = 20;
export const MAX_RELATED = 100;
/** Files that mark the root of a package, nearest first. */
const PACKAGE_MARKERS = ['package.json', 'go.mod', 'Cargo.toml', 'pyproject.toml', 'setup.py', 'pom.xml', 'build.gradle', 'build.gradle.kts', 'composer.json', 'Gemfile', '__init__.py'];

export const RELATIONS = ['calls', 'called_by', 'sibling', 'imports', 'same_file', 'same_module', 'same_package'] as const;
type Relation = (typeof RELATIONS)[number];

interface RelatedEntry {
  relation: Relation;
  symbol?: SymbolInfo;
  /** A definition of another file, decoded only if it is shown (a package holds thousands). */
  brief?: BriefSymbol;
  path: string;
  /** For imports: the imported module or name; for calls: where the call is. */
  detail?: string;
  line?: number;
}

/** The nearest directory at or above `dir` (inside the workspace) holding a package marker; else the top directory. */
function packageOf(project: Project, dir: string): string {
  for (let current = dir; ; current = dirname(current)) {
    if (PACKAGE_MARKERS.some((marker) => existsSync(join(project.root, current, marker)))) return current;
    if (current === '.' || current === '' || current === '/') return current === '/' ? '.' : current;
  }
}

function within(path: string, dir: string): boolean {
  return dir === '.' || dir === '' || path.startsWith(`${dir}/`);
}

/** The definition a name most likely means: in the same file, then the same directory, then anywhere. */
function definitionOf(name: string, from: string, definitions: Array<{ symbol: SymbolInfo; path: string }>): { symbol: SymbolInfo; path: string } | undefined {
  let best: { symbol: SymbolInfo; path: string; rank: number } | undefined;
  for (const { symbol, path } of definitions) {
    if (symbol.name !== name) continue;
    const rank = path === from ? 0 : dirname(path) === dirname(from) ? 1 : 2;
    if (!best || rank < best.rank) best = { symbol, path, rank };
  }
  return best;
}

/** Lines a (line, name id) key tells apart: ids are below 2^32, so a key stays below 2^53. */
const LINES_PER_KEY = 2 ** 21;

export function createFindRelatedTool(projects: ProjectService): ToolDefinition {
  return projectTool(projects, {
    name: 'find_related_symbols',
    title: 'Find related symbols',
    description:
      'Lists what a symbol is related to, each with the relation: calls (what it calls), called_by (its callers), sibling (same parent), imports (what its file imports), ' +
      'same_file, same_module (same directory) and same_package (under the nearest package root). scope limits how far: file (default), module or package. ' +
      'A name defined in several places needs path; the error lists the candidates.',
    inputSchema: {
      type: 'object',
      properties: {
        symbol_name: { type: 'string', minLength: 1 },
        path: { type: 'string' },
        scope: { type: 'string', enum: ['file', 'module', 'package'], default: 'file' },
        limit: { type: 'integer', minimum: 1, maximum: MAX_RELATED, default: DEFAULT_RELATED },
      },
      required: ['symbol_name'],
      additionalProperties: false,
    },
    outputSchema: {
      type: 'object',
      properties: {
        ...STATUS_PROPERTIES,
        symbol: SYMBOL_SCHEMA,
        scope: { type: 'string', enum: ['file', 'module', 'package'] },
        related: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              relation: { type: 'string', enum: [...RELATIONS] },
              path: { type: 'string' },
              line: { type: 'integer', minimum: 1 },
              detail: { type: 'string' },
              symbol: SYMBOL_SCHEMA,
            },
            required: ['relation', 'path'],
            additionalProperties: false,
          },
        },
        total_related: { type: 'integer', minimum: 0 },
      },
      required: [...STATUS_REQUIRED, 'symbol', 'scope', 'related', 'total_related'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    run(project, _resolved, args) {
      const { symbols: loaded, manifest } = requireSymbols(project);
      const target = resolveSymbol(project, args.symbol_name as string, args.path as string | undefined);
      const scope = (args.scope as 'file' | 'module' | 'package' | undefined) ?? 'file';
      const limit = (args.limit as number | undefined) ?? DEFAULT_RELATED;
      const perFile = new Map<string, SymbolInfo[]>();
      const symbolsOf = (path: string): SymbolInfo[] => {
        if (!perFile.has(path)) perFile.set(path, loaded.symbolsIn(path) ?? []);
        return perFile.get(path)!;
      };
      const home = symbolsOf(target.path);
      const homeReferences = loaded.referencesIn(target.path);
      const entries: RelatedEntry[] = [];
      const seen = new Set<string>();
      const add = (entry: RelatedEntry): void => {
        const key = `${entry.relation}\0${entry.path}\0${entry.brief?.line ?? entry.symbol?.line ?? entry.line}\0${entry.brief ? `\0${entry.brief.id}` : (entry.symbol?.name ?? entry.detail)}`;
        if (seen.has(key)) return;
        seen.add(key);
        entries.push(entry);
      };
      const { symbol } = target;
      // What it calls: call references inside its range, resolved to definitions where possible.
      for (const reference of homeReferences) {
        if (reference.kind !== 'call' || reference.line < symbol.line || reference.line > symbol.endLine || reference.name === symbol.name) continue;
        const definition = definitionOf(reference.name, target.path, loaded.definitions(reference.name));
        if (definition) add({ relation: 'calls', symbol: definition.symbol, path: definition.path, line: reference.line });
        else add({ relation: 'calls', path: target.path, line: reference.line, detail: reference.name });
      }
      // Who calls it: call references by its name, each inside some caller.
      for (const reference of loaded.referencesTo(symbol.name)) {
        if (reference.kind !== 'call') continue;
        if (reference.path === target.path && reference.line >= symbol.line && reference.line <= symbol.endLine) continue; // recursion
        const caller = enclosingSymbol(symbolsOf(reference.path), reference.line);
        if (caller) add({ relation: 'called_by', symbol: caller, path: reference.path, line: reference.line });
        else add({ relation: 'called_by', path: reference.path, line: reference.line, detail: 'top-level code' });
      }
      for (const other of home) {
        if (!sameSymbol(other, symbol) && other.parent === symbol.parent && (other.parent !== undefined || !enclosingSymbol(home.filter((s) => s !== other), other.line))) {
          add({ relation: 'sibling', symbol: other, path: target.path });
        }
      }
      for (const reference of homeReferences) if (reference.kind === 'import') add({ relation: 'imports', path: target.path, line: reference.line, detail: reference.name });
      for (const other of home) if (!sameSymbol(other, symbol)) add({ relation: 'same_file', symbol: other, path: target.path });
      // Other files' definitions: kept while the list has room, counted past it (a package can
      // hold hundreds of thousands). Each file is visited once per relation, so telling its own
      // definitions apart is all the deduplication they need.
      let counted = 0;
      // (line, name id) as one number: past the list's room only counting goes on, and it makes no garbage.
      const distinct = new Set<number>();
      const addFile = (relation: Relation, path: string, topLevelOnly: boolean): void => {
        distinct.clear();
        loaded.visitBriefs(path, (other) => {
          if (topLevelOnly && !other.topLevel) return;
          const key = other.id * LINES_PER_KEY + Math.min(other.line, LINES_PER_KEY - 1);
          if (distinct.has(key)) return;
          distinct.add(key);
          if (entries.length < limit) add({ relation, brief: { ...other }, path });
          else counted++;
        });
      };
      if (scope !== 'file') {
        const dir = dirname(target.path);
        for (const path of loaded.paths) if (path !== target.path && dirname(path) === dir) addFile('same_module', path, false);
      }
      if (scope === 'package') {
        const root = packageOf(project, dirname(target.path));
        for (const path of loaded.paths) {
          if (dirname(path) === dirname(target.path) || !within(path, root)) continue;
          addFile('same_package', path, true);
        }
      }
      const total = entries.length + counted;
      // Only what is shown is decoded.
      for (const entry of entries.slice(0, limit)) if (entry.brief) entry.symbol = loaded.symbolOf(entry.brief);
      const kept = entries.slice(0, limit).map((entry) => {
        const json: Record<string, unknown> = { relation: entry.relation, path: entry.path };
        if (entry.line !== undefined) json.line = entry.line;
        if (entry.detail !== undefined) json.detail = entry.detail;
        if (entry.symbol) json.symbol = describeSymbol(entry.symbol, entry.path);
        return json;
      });
      const fits = fitCount(kept, MAX_OUTPUT_CHARS / 2, (entry) => JSON.stringify(entry).length * 2);
      const completeness: Completeness = fits < total ? 'truncated' : 'complete';
      const lines = entries.slice(0, fits).map((entry) => `${entry.relation}: ${entry.symbol ? `${entry.symbol.kind} ${entry.symbol.qualifiedName} (${entry.path}:${entry.symbol.line})` : `${entry.detail} (${entry.path}:${entry.line})`}${entry.relation === 'calls' || entry.relation === 'called_by' ? ` at line ${entry.line}` : ''}`);
      return {
        content: [{ type: 'text', text: [`${symbol.kind} ${symbol.qualifiedName} (${target.path}:${symbol.line}): ${total} related${completeness === 'truncated' ? `, first ${fits} shown` : ''}`, ...lines].join('\n') }],
        structuredContent: { ...statusFields(project, manifest, completeness), symbol: describeSymbol(symbol, target.path), scope, related: kept.slice(0, fits), total_related: total },
      };
    },
  });
}

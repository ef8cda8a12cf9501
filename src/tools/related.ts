/**
 * `find_related_symbols`: what a symbol works with — what it calls and what calls it (from the
 * call references the symbol phase keeps), its siblings, what its file imports, and the other
 * definitions of its file, module (directory) or package, each with the relation named.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { BriefSymbol, SymbolInfo } from '../index/symbols/index.js';
import type { ToolDefinition } from '../mcp/index.js';
import type { Project } from '../workspace/project.js';
import type { ProjectService } from '../workspace/projects.js';
import { describeSymbol, enclosingSymbol, sameSymbol, SYMBOL_SCHEMA } from './symbol-shape.js';
import { fitCount, MAX_NAME_CHARS, MAX_OUTPUT_CHARS, MAX_PATH_CHARS } from './limits.js';
import { projectLines } from './workspace-files.js';
import { statusFields, STATUS_PROPERTIES, STATUS_REQUIRED, type Completeness } from './status.js';
import { projectTool } from './project-tool.js';
import { resolveCall, RESOLUTIONS, RESOLUTION_MEANINGS, type Resolution } from './call-resolution.js';
import { plural } from '../wording.js';
import { PICK_LINE_SCHEMA, requireSymbols, resolveSymbol } from './symbol-tools.js';

const DEFAULT_RELATED = 20;
const MAX_RELATED = 100;
/** Files that mark the root of a package, nearest first. */
const PACKAGE_MARKERS = [
  'package.json',
  'go.mod',
  'Cargo.toml',
  'pyproject.toml',
  'setup.py',
  'pom.xml',
  'build.gradle',
  'build.gradle.kts',
  'composer.json',
  'Gemfile',
  '__init__.py',
];

const RELATIONS = ['calls', 'called_by', 'sibling', 'imports', 'same_file', 'same_module', 'same_package'] as const;
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
  /** For calls and callers: how the call was tied to its definition. */
  resolution?: Resolution;
  candidates?: number;
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

/** One entry as the model reads it: a definition with its place, or a name that has none, and how sure the link is. */
function describeEntry(entry: RelatedEntry): string {
  const call = entry.relation === 'calls' || entry.relation === 'called_by';
  const what = entry.symbol
    ? `${entry.symbol.kind} ${entry.symbol.qualifiedName} (${entry.path}:${entry.symbol.line})`
    : entry.relation === 'calls'
      ? entry.detail!
      : `${entry.detail} (${entry.path}:${entry.line})`;
  if (!call) return `${entry.relation}: ${what}`;
  const sure =
    entry.resolution === 'name_only'
      ? `name_only: ${entry.candidates ? `one of ${plural(entry.candidates, 'definition')} of that name` : 'a guess by name'}`
      : `${entry.resolution}: ${RESOLUTION_MEANINGS[entry.resolution!]}`;
  const where = entry.relation === 'calls' && !entry.symbol ? ` at ${entry.path}:${entry.line}` : ` at line ${entry.line}`;
  return `${entry.relation}: ${what}${where} [${sure}]`;
}

/** Lines a (line, name id) key tells apart: ids are below 2^32, so a key stays below 2^53. */
const LINES_PER_KEY = 2 ** 21;

export function createFindRelatedTool(projects: ProjectService): ToolDefinition {
  return projectTool(projects, {
    name: 'find_related_symbols',
    title: 'Find related symbols',
    description:
      'Lists what a symbol is related to, each with the relation: calls (what it calls), called_by (its callers), sibling (same parent), ' +
      'imports (what its file imports), ' +
      'same_file, same_module (same directory) and same_package (under the nearest package root). scope limits how far: file (default), module or package. ' +
      'Each call and caller says how it was resolved (resolution): ' +
      RESOLUTIONS.map((resolution) => `${resolution} (${RESOLUTION_MEANINGS[resolution]})`).join(', ') +
      '; built-in and unresolved calls name no definition. Past limit, entries are counted in total_related, not listed. ' +
      'A name defined in several places needs path; the error lists the candidates.',
    inputSchema: {
      type: 'object',
      properties: {
        symbol_name: { type: 'string', minLength: 1, maxLength: MAX_NAME_CHARS },
        path: { type: 'string', maxLength: MAX_PATH_CHARS },
        line: PICK_LINE_SCHEMA,
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
              resolution: { type: 'string', enum: [...RESOLUTIONS] },
              candidates: { type: 'integer', minimum: 2, description: 'name_only: how many definitions share the name' },
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
      const target = resolveSymbol(project, args.symbol_name as string, args.path as string | undefined, args.line as number | undefined);
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
        const line = entry.brief?.line ?? entry.symbol?.line ?? entry.line;
        const what = entry.brief ? `\0${entry.brief.id}` : (entry.symbol?.name ?? entry.detail);
        const key = `${entry.relation}\0${entry.path}\0${line}\0${what}`;
        if (seen.has(key)) return;
        seen.add(key);
        entries.push(entry);
      };
      const { symbol } = target;
      // Past the list's room, entries are only counted: resolving them costs reads (a name called 18,000 times).
      let counted = 0;
      const linesOf = projectLines(project.root);
      const lineOf = (path: string, line: number): string => linesOf(path, line, line)[0] ?? '';
      const importsOf = (path: string): string[] =>
        (path === target.path ? homeReferences : loaded.referencesIn(path))
          .filter((reference) => reference.kind === 'import')
          .map((reference) => reference.name);
      const typeAround = (path: string, line: number): string | undefined => {
        const around = enclosingSymbol(
          symbolsOf(path).filter((other) => other.kind === 'method' || other.kind === 'function'),
          line,
        );
        return around?.kind === 'method' ? around.parent : undefined;
      };
      const homeImports = importsOf(target.path);
      // What it calls: call references inside its range, each with how its definition was found.
      for (const reference of homeReferences) {
        if (reference.kind !== 'call' || reference.line < symbol.line || reference.line > symbol.endLine || reference.name === symbol.name) continue;
        if (entries.length >= limit) {
          counted++;
          continue;
        }
        const site = {
          name: reference.name,
          path: target.path,
          lineText: lineOf(target.path, reference.line),
          column: reference.column,
          language: symbol.language,
          imports: homeImports,
          enclosingType: typeAround(target.path, reference.line),
        };
        const resolved = resolveCall(site, loaded.definitions(reference.name));
        const entry: RelatedEntry = {
          relation: 'calls',
          path: resolved.definition?.path ?? target.path,
          line: reference.line,
          resolution: resolved.resolution,
        };
        if (resolved.definition) entry.symbol = resolved.definition.symbol;
        else entry.detail = reference.name;
        if (resolved.candidates) entry.candidates = resolved.candidates;
        add(entry);
      }
      // Who calls it: call references by its name, each inside some caller, unless the call means another definition.
      const namesakes = loaded.definitions(symbol.name);
      for (const reference of loaded.referencesTo(symbol.name)) {
        if (reference.kind !== 'call') continue;
        if (reference.path === target.path && reference.line >= symbol.line && reference.line <= symbol.endLine) continue; // recursion
        if (entries.length >= limit) {
          counted++;
          continue;
        }
        const site = {
          name: symbol.name,
          path: reference.path,
          lineText: lineOf(reference.path, reference.line),
          column: reference.column,
          language: symbol.language,
          imports: importsOf(reference.path),
          enclosingType: typeAround(reference.path, reference.line),
        };
        const resolved = resolveCall(site, namesakes);
        const meansTarget = resolved.definition !== undefined && resolved.definition.path === target.path && sameSymbol(resolved.definition.symbol, symbol);
        if (!meansTarget && resolved.resolution !== 'name_only') continue; // it calls another definition of the name
        const caller = enclosingSymbol(symbolsOf(reference.path), reference.line);
        const entry: RelatedEntry = {
          relation: 'called_by',
          path: reference.path,
          line: reference.line,
          resolution: meansTarget ? resolved.resolution : 'name_only',
        };
        if (!meansTarget && resolved.candidates) entry.candidates = resolved.candidates;
        if (caller) entry.symbol = caller;
        else entry.detail = 'top-level code';
        add(entry);
      }
      // A parent is the innermost enclosing definition of any kind, so no parent means top level.
      for (const other of home)
        if (!sameSymbol(other, symbol) && other.parent === symbol.parent) add({ relation: 'sibling', symbol: other, path: target.path });
      for (const reference of homeReferences)
        if (reference.kind === 'import') add({ relation: 'imports', path: target.path, line: reference.line, detail: reference.name });
      for (const other of home) if (!sameSymbol(other, symbol)) add({ relation: 'same_file', symbol: other, path: target.path });
      // Other files' definitions: kept while the list has room, counted past it (a package can
      // hold hundreds of thousands). Each file is visited once per relation, so telling its own
      // definitions apart is all the deduplication they need.
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
        if (entry.resolution) json.resolution = entry.resolution;
        if (entry.candidates) json.candidates = entry.candidates;
        return json;
      });
      const fits = fitCount(kept, MAX_OUTPUT_CHARS / 2, (entry) => JSON.stringify(entry).length * 2);
      const completeness: Completeness = fits < total ? 'truncated' : 'complete';
      const lines = entries.slice(0, fits).map(describeEntry);
      return {
        content: [
          {
            type: 'text',
            text: [
              `${symbol.kind} ${symbol.qualifiedName} (${target.path}:${symbol.line}): ${total} ` +
                `related${completeness === 'truncated' ? `, first ${fits} shown (raise limit for more)` : ''}`,
              ...lines,
            ].join('\n'),
          },
        ],
        structuredContent: {
          ...statusFields(project, manifest, completeness),
          symbol: describeSymbol(symbol, target.path),
          scope,
          related: kept.slice(0, fits),
          total_related: total,
        },
      };
    },
  });
}

/**
 * `locate_symbol`: definitions by name, exact matches first, then case-insensitive, prefix and
 * fuzzy ones; in one project, or in several at once, best first across all of them.
 */
import type { JsonObject, ToolDefinition } from '../mcp/index.js';
import { SYMBOL_KINDS, type SymbolInfo } from '../index/symbols/index.js';
import type { ProjectService } from '../workspace/projects.js';
import type { ProjectSymbols } from '../workspace/project.js';
import { describeSymbol, SYMBOL_SCHEMA } from './symbol-shape.js';
import { fitCount, MAX_NAME_CHARS, MAX_OUTPUT_CHARS } from './limits.js';
import { statusFields, STATUS_PROPERTIES, STATUS_REQUIRED, type Completeness } from './status.js';
import { codedError, CodedError } from '../errors.js';
import { projectTool } from './project-tool.js';
import { requireSymbols } from './symbol-tools.js';
import { listedIncomplete, readinessOf, RESULT_PROJECT_PROPERTIES, spanNotes, tagOf, type Incomplete, type Spanned } from './spanning.js';
import { plural } from '../wording.js';

const DEFAULT_SYMBOL_RESULTS = 20;
const MAX_SYMBOL_RESULTS = 100;

/** Scores from a prefix match up: with any of them, fuzzy look-alikes are noise. */
const CLOSE_MATCH = 70;

type Found = SymbolInfo & { path: string; score: number };

function matchType(score: number): string {
  return score >= 100 ? 'exact' : score >= 90 ? 'case_insensitive' : score >= 70 ? 'prefix' : 'fuzzy';
}

/** The definitions one project has for the arguments, best first: `limit` and one more (to know there are more). */
function lookUp(symbols: ProjectSymbols, args: JsonObject, limit: number): Found[] {
  const lookup: { kind?: string; limit: number } = { limit: args.language ? MAX_SYMBOL_RESULTS * 50 : limit + 1 };
  if (typeof args.kind === 'string') lookup.kind = args.kind;
  const found = symbols.find(args.name as string, lookup);
  return typeof args.language === 'string' ? found.filter((symbol) => symbol.language === args.language) : found;
}

/** Fuzzy matches only when nothing closer exists (`found` is best first); whether some were left out. */
function closest<T extends { score: number }>(found: T[]): { kept: T[]; fuzzyOmitted: boolean } {
  const close = found.length > 0 && found[0]!.score >= CLOSE_MATCH;
  const fuzzyOmitted = close && found.some((symbol) => symbol.score < CLOSE_MATCH);
  return { kept: close ? found.filter((symbol) => symbol.score >= CLOSE_MATCH) : found, fuzzyOmitted };
}

function notFound(args: JsonObject): CodedError {
  const name = args.name as string;
  return codedError(
    'symbol_not_found',
    `No symbol matches ${JSON.stringify(name)}${args.kind ? ` of kind ${String(args.kind)}` : ''}${args.language ? ` in ${String(args.language)}` : ''}`,
    { name },
  );
}

/** The headline of an answer: how many definitions, and whether more exist. */
function headline(count: number, args: JsonObject, completeness: Completeness): string {
  const more = completeness === 'truncated' ? ' (more exist: raise limit or narrow by kind/language)' : '';
  return `${plural(count, 'definition')} for ${JSON.stringify(args.name)}${more}:`;
}

const FUZZY_NOTE = '(fuzzy look-alikes left out: closer matches exist)';

/** locate_symbol over several projects: each one's best, merged by score (a tie keeps the projects' order). */
function locateAcross(
  members: Spanned[],
  args: JsonObject,
  autoIndex: boolean,
): { content: Array<{ type: 'text'; text: string }>; structuredContent: Record<string, unknown> } {
  const limit = (args.limit as number | undefined) ?? DEFAULT_SYMBOL_RESULTS;
  const incomplete: Incomplete[] = [];
  const all: Array<{ symbol: Found; member: Spanned }> = [];
  let answered = 0;
  for (const member of members) {
    const ready = readinessOf(member, autoIndex);
    if (ready.incomplete) incomplete.push(ready.incomplete);
    if (!ready.manifest) continue;
    let symbols: ProjectSymbols;
    try {
      symbols = requireSymbols(member.project).symbols;
    } catch (error) {
      if (!(error instanceof CodedError)) throw error;
      if (!ready.incomplete) incomplete.push({ project: member.label, state: error.code === 'index_not_ready' ? 'indexing' : 'failed', reason: error.message });
      continue;
    }
    answered++;
    all.push(...lookUp(symbols, args, limit).map((symbol) => ({ symbol, member })));
  }
  // Stable: equal scores keep the order of the projects, and each project its own.
  all.sort((a, b) => b.symbol.score - a.symbol.score);
  const { kept, fuzzyOmitted } = closest(all.map((entry) => ({ ...entry, score: entry.symbol.score })));
  if (kept.length === 0 && incomplete.length === 0) throw notFound(args);
  const listed = kept.slice(0, limit);
  const lines = listed.map(
    ({ symbol, member }) =>
      `${tagOf(member)} ${symbol.path}:${symbol.line}: ${symbol.kind} ${symbol.qualifiedName} [${matchType(symbol.score)}]  ${symbol.signature}`,
  );
  const fits = fitCount(lines, MAX_OUTPUT_CHARS / 2, (line) => line.length * 3);
  const shown = listed.slice(0, fits);
  let completeness: Completeness = kept.length > limit || fits < listed.length ? 'truncated' : 'complete';
  if (incomplete.length > 0) completeness = 'partial';
  const notes = spanNotes([...new Set(shown.map((entry) => entry.member))], answered, incomplete);
  return {
    content: [
      { type: 'text', text: [headline(fits, args, completeness), ...lines.slice(0, fits), ...(fuzzyOmitted ? [FUZZY_NOTE] : []), ...notes].join('\n') },
    ],
    structuredContent: {
      result_completeness: completeness,
      symbols: shown.map(({ symbol, member }) => ({
        ...describeSymbol(symbol, symbol.path),
        match: matchType(symbol.score),
        project: member.label,
        ...(member.commit && { commit: member.commit }),
      })),
      projects_searched: answered,
      ...(fuzzyOmitted ? { fuzzy_omitted: true } : {}),
      ...(incomplete.length > 0 && { projects_incomplete: listedIncomplete(incomplete) }),
    },
  };
}

export function createLocateSymbolTool(projects: ProjectService): ToolDefinition {
  return projectTool(projects, {
    name: 'locate_symbol',
    title: 'Locate symbol',
    description:
      'Finds symbol definitions (functions, methods, classes, structs, interfaces, types, enums and their members, fields, macros, variables, ' +
      'constants, modules) by name: exact matches first, ' +
      'then case-insensitive, prefix and fuzzy ones (camelCase and snake_case aware: "gUBI" finds getUserById). Each has path, range, kind, ' +
      'qualified name and signature. In several projects at once (projects), the best of all of them first, each naming its project.',
    inputSchema: {
      type: 'object',
      properties: {
        name: { type: 'string', minLength: 1, maxLength: MAX_NAME_CHARS },
        kind: { type: 'string', enum: [...SYMBOL_KINDS] },
        language: { type: 'string' },
        limit: { type: 'integer', minimum: 1, maximum: MAX_SYMBOL_RESULTS, default: DEFAULT_SYMBOL_RESULTS },
      },
      required: ['name'],
      additionalProperties: false,
    },
    outputSchema: {
      type: 'object',
      properties: {
        ...STATUS_PROPERTIES,
        symbols: {
          type: 'array',
          items: {
            ...SYMBOL_SCHEMA,
            properties: {
              ...SYMBOL_SCHEMA.properties,
              match: { type: 'string', enum: ['exact', 'case_insensitive', 'prefix', 'fuzzy'] },
              ...RESULT_PROJECT_PROPERTIES,
            },
          },
        },
        fuzzy_omitted: { type: 'boolean', description: 'Fuzzy look-alikes were left out because exact, case-insensitive or prefix matches exist' },
      },
      required: [...STATUS_REQUIRED, 'symbols'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    runMany: (members, args) => locateAcross(members, args, projects.autoIndex),
    run(project, _resolved, args) {
      const { symbols, manifest } = requireSymbols(project);
      const limit = (args.limit as number | undefined) ?? DEFAULT_SYMBOL_RESULTS;
      const { kept: found, fuzzyOmitted } = closest(lookUp(symbols, args, limit));
      if (found.length === 0) throw notFound(args);
      const more = found.length > limit;
      const kept = found.slice(0, limit);
      const shown = kept.map((symbol) => ({ ...describeSymbol(symbol, symbol.path), match: matchType(symbol.score) }));
      const lines = kept.map(
        (symbol) => `${symbol.path}:${symbol.line}: ${symbol.kind} ${symbol.qualifiedName} [${matchType(symbol.score)}]  ${symbol.signature}`,
      );
      const fits = fitCount(lines, MAX_OUTPUT_CHARS / 2, (line) => line.length * 3);
      const completeness: Completeness = more || fits < shown.length ? 'truncated' : 'complete';
      return {
        content: [{ type: 'text', text: [headline(fits, args, completeness), ...lines.slice(0, fits), ...(fuzzyOmitted ? [FUZZY_NOTE] : [])].join('\n') }],
        structuredContent: {
          ...statusFields(project, manifest, completeness),
          symbols: shown.slice(0, fits),
          ...(fuzzyOmitted ? { fuzzy_omitted: true } : {}),
        },
      };
    },
  });
}

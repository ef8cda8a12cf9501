/** `locate_symbol`, `get_file_outline`, `get_symbol_hierarchy`: definitions by name, per file, and by nesting. */
import { resumeCommand } from '../index/store/index.js';
import type { SymbolInfo } from '../index/symbols/index.js';
import type { ToolDefinition } from '../mcp/index.js';
import type { IndexStamps, Project, ProjectSymbols } from '../workspace/project.js';
import type { ProjectService } from '../workspace/projects.js';
import { describeSymbol, fileSymbols, sameSymbol, SYMBOL_SCHEMA } from './symbol-shape.js';
import { MAX_NAME_CHARS, MAX_OUTPUT_CHARS, MAX_PATH_CHARS } from './limits.js';
import { statusFields, STATUS_PROPERTIES, STATUS_REQUIRED, type Completeness } from './status.js';
import { workspacePath } from './workspace-files.js';
import { codedError } from '../errors.js';
import { projectTool } from './project-tool.js';
import { plural } from '../wording.js';

/** Candidates listed with an ambiguous_symbol error. */
const MAX_CANDIDATES = 20;

/** The project's symbols (read lazily; `at`: as of stamps read once), or index_not_ready while the symbol phase has not written them yet. */
export function requireSymbols(project: Project, at?: IndexStamps): { symbols: ProjectSymbols; manifest: ReturnType<Project['requireIndex']> } {
  const manifest = project.requireIndex(at && project.indexState(at));
  const symbols = project.symbols(at);
  if (!symbols) {
    const interrupted = project.job ? undefined : project.store.interruptedJob();
    if (interrupted?.mode === 'symbols') {
      throw codedError(
        'index_not_ready',
        `The symbol phase for ${project.root} was interrupted at ${interrupted.done}/${interrupted.total} files and no symbols were written yet`,
        { workspace: project.root },
        `Run sync_repo (or \`${resumeCommand(interrupted, project.root)}\`) to finish it, then retry.`,
      );
    }
    throw codedError(
      'index_not_ready',
      `The symbols of ${project.root} are not built yet${project.job ? ` (job ${project.job.id} is at ${project.job.percent}%)` : ''}`,
      { workspace: project.root },
      'Run sync_repo (or wait for the running job), then retry.',
    );
  }
  return { symbols, manifest };
}

export interface Located {
  symbol: SymbolInfo;
  path: string;
}

/** The `line` argument of a tool that names one definition: it picks one of several of the same name. */
export const PICK_LINE_SCHEMA = {
  type: 'integer',
  minimum: 1,
  description: 'With several definitions of the name (ambiguous_symbol lists them), the one whose range holds this line',
} as const;

/**
 * Definitions named exactly `name` (or with that qualified name), optionally in one file and
 * holding one line (the innermost, when nested); exactly one, or the error.
 */
export function resolveSymbol(project: Project, name: string, path: string | undefined, line?: number): Located {
  const { symbols } = requireSymbols(project);
  const wanted = path === undefined ? undefined : workspacePath(project, path);
  let found: Located[] = symbols.definitions(name).filter((entry) => wanted === undefined || entry.path === wanted);
  if (line !== undefined) {
    found = found.filter((entry) => entry.symbol.line <= line && line <= entry.symbol.endLine);
    // Nested definitions of one name (a method inside a same-named type) that both hold the line: the innermost.
    const innermost = Math.max(...found.map((entry) => entry.symbol.line));
    if (found.length > 1 && new Set(found.map((entry) => entry.path)).size === 1) found = found.filter((entry) => entry.symbol.line === innermost);
  }
  if (found.length === 1) return found[0]!;
  if (found.length === 0) {
    const where = `${wanted ? ` in ${wanted}` : ''}${line !== undefined ? ` holding line ${line}` : ''}`;
    throw codedError(
      'symbol_not_found',
      `No definition named ${JSON.stringify(name)}${where}`,
      { symbol_name: name },
      'Check the spelling or use locate_symbol for close matches; qualified names like Class.method work too.',
    );
  }
  // Several: a qualified-name match or a container wins over members with the same short name only when unique.
  const byQualified = found.filter((entry) => entry.symbol.qualifiedName === name);
  if (byQualified.length === 1) return byQualified[0]!;
  // The candidates go in the text too: many clients show the model nothing but the text.
  const listed = found.slice(0, MAX_CANDIDATES);
  const lines = listed.map((entry) => `  ${entry.path}:${entry.symbol.line}: ${entry.symbol.kind} ${entry.symbol.qualifiedName}`);
  if (found.length > listed.length) lines.push(`  … and ${found.length - listed.length} more`);
  // What separates them: a path when they are in several files, a qualified name when theirs differ, a line when theirs do.
  const ways = [
    ...(new Set(found.map((entry) => entry.path)).size > 1 ? ['path'] : []),
    ...(new Set(found.map((entry) => entry.symbol.qualifiedName)).size > 1 ? ['a qualified name'] : []),
    ...(new Set(found.map((entry) => `${entry.path}:${entry.symbol.line}`)).size > 1 ? ['line (one of the lines listed)'] : []),
  ];
  if (ways.length === 0) ways.push('path or line (they are defined at one place twice: either one answers)');
  throw codedError(
    'ambiguous_symbol',
    `${found.length} definitions are named ${JSON.stringify(name)}; pass ${ways.join(' or ')} to pick one:\n${lines.join('\n')}`,
    {
      symbol_name: name,
      candidates: listed.map((entry) => ({ path: entry.path, line: entry.symbol.line, kind: entry.symbol.kind, qualified_name: entry.symbol.qualifiedName })),
    },
  );
}

/** Symbols of one file nested by range: each symbol's children are the ones it encloses. */
interface OutlineNode {
  symbol: SymbolInfo;
  children: OutlineNode[];
}

function outlineOf(symbols: SymbolInfo[]): OutlineNode[] {
  const sorted = [...symbols].sort((a, b) => a.line - b.line || a.column - b.column || b.endLine - a.endLine);
  const roots: OutlineNode[] = [];
  const stack: OutlineNode[] = [];
  for (const symbol of sorted) {
    const node: OutlineNode = { symbol, children: [] };
    while (stack.length > 0 && stack.at(-1)!.symbol.endLine < symbol.line) stack.pop();
    // Same range start and end as the enclosing one (e.g. `export const x = ...` twice): a sibling.
    while (stack.length > 0 && stack.at(-1)!.symbol.endLine < symbol.endLine) stack.pop();
    (stack.at(-1)?.children ?? roots).push(node);
    stack.push(node);
  }
  return roots;
}

function renderOutline(nodes: OutlineNode[], depth: number, lines: string[]): void {
  for (const node of nodes) {
    lines.push(`${'  '.repeat(depth)}${node.symbol.kind} ${node.symbol.name} (${node.symbol.line}-${node.symbol.endLine})  ${node.symbol.signature}`);
    renderOutline(node.children, depth + 1, lines);
  }
}

/**
 * The leading part of a tree, in reading order, that fits `budget` characters (its JSON and its
 * text line, per node): whole nodes only, and a kept node keeps its place under its parent.
 */
function pruneTree(nodes: OutlineNode[], path: string, budget: number): { tree: OutlineNode[]; kept: number; total: number; nextLine?: number } {
  let used = 0;
  let kept = 0;
  let total = 0;
  let full = false;
  let nextLine: number | undefined;
  const walk = (level: OutlineNode[]): OutlineNode[] => {
    const out: OutlineNode[] = [];
    for (const node of level) {
      total++;
      const cost = JSON.stringify(describeSymbol(node.symbol, path)).length + node.symbol.signature.length + 40;
      if (full || used + cost > budget) {
        full = true;
        nextLine ??= node.symbol.line;
        total += countNodes(node.children);
        continue;
      }
      used += cost;
      kept++;
      out.push({ symbol: node.symbol, children: walk(node.children) });
    }
    return out;
  };
  const tree = walk(nodes);
  return nextLine === undefined ? { tree, kept, total } : { tree, kept, total, nextLine };
}

function countNodes(nodes: OutlineNode[]): number {
  return nodes.reduce((sum, node) => sum + 1 + countNodes(node.children), 0);
}

function outlineJson(nodes: OutlineNode[], path: string, all: boolean): Array<Record<string, unknown>> {
  return nodes.map((node) => ({
    ...describeSymbol(node.symbol, path),
    ...(all && node.children.length > 0 ? { children: outlineJson(node.children, path, all) } : {}),
  }));
}

/**
 * The definitions that enclose `symbol`, innermost first: by range, and by the parent named in
 * its qualified name where the container does not enclose it (a Rust `impl` outside its struct,
 * a Go method beside its type).
 */
function ancestorsOf(symbol: SymbolInfo, others: SymbolInfo[]): SymbolInfo[] {
  const found = new Set(
    others.filter((other) => other.line <= symbol.line && other.endLine >= symbol.endLine && other.endLine - other.line >= symbol.endLine - symbol.line),
  );
  for (let parent = symbol.parent; parent !== undefined;) {
    const named = others.find((other) => other.qualifiedName === parent);
    if (!named || found.has(named)) break;
    found.add(named);
    parent = named.parent;
  }
  const depth = (entry: SymbolInfo): number => (entry.qualifiedName === symbol.parent ? -1 : entry.endLine - entry.line);
  return [...found].sort((a, b) => depth(a) - depth(b));
}

export function createFileOutlineTool(projects: ProjectService): ToolDefinition {
  return projectTool(projects, {
    name: 'get_file_outline',
    title: 'File outline',
    description:
      'Lists the symbols of one file as a tree (classes with their methods, …), each with its line range, kind and signature. depth "top" ' +
      'lists only top-level symbols. ' +
      'A file with more symbols than one answer holds is cut at a symbol boundary: next_start_line (also in the text) is where to continue ' +
      'with start_line; start_line and end_line list only the symbols that start in that range.',
    inputSchema: {
      type: 'object',
      properties: {
        path: { type: 'string', minLength: 1, maxLength: MAX_PATH_CHARS, description: 'Workspace-relative path, or an absolute path inside the workspace' },
        depth: { type: 'string', enum: ['top', 'all'], default: 'all' },
        start_line: { type: 'integer', minimum: 1, description: 'Only symbols that start on or after this line' },
        end_line: { type: 'integer', minimum: 1, description: 'Only symbols that start on or before this line' },
      },
      required: ['path'],
      additionalProperties: false,
    },
    outputSchema: {
      type: 'object',
      properties: {
        ...STATUS_PROPERTIES,
        path: { type: 'string' },
        symbols: { type: 'array', items: SYMBOL_SCHEMA },
        symbol_count: { type: 'integer', minimum: 0, description: 'Symbols in the whole file' },
        next_start_line: { type: 'integer', minimum: 1, description: 'The answer was cut: call again with this start_line for the rest' },
      },
      required: [...STATUS_REQUIRED, 'path', 'symbols', 'symbol_count'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    run(project, _resolved, args) {
      const { manifest } = requireSymbols(project);
      const path = workspacePath(project, args.path as string);
      const file = fileSymbols(project, path);
      const all = args.depth !== 'top';
      const from = (args.start_line as number | undefined) ?? 1;
      const to = (args.end_line as number | undefined) ?? Number.POSITIVE_INFINITY;
      if (from > to) throw codedError('invalid_input', `start_line ${from} is after end_line ${to}`, { argument: 'start_line' });
      const full = outlineOf(file.symbols.filter((symbol) => symbol.line >= from && symbol.line <= to));
      const { tree, kept, total, nextLine } = pruneTree(all ? full : full.map((node) => ({ ...node, children: [] })), path, MAX_OUTPUT_CHARS / 2);
      const completeness: Completeness = kept < total ? 'truncated' : 'complete';
      const json = outlineJson(tree, path, all);
      const lines: string[] = [];
      renderOutline(tree, 0, lines);
      if (nextLine !== undefined) lines.push(`(the first ${kept} of ${total} symbols, to stay within the output budget: continue with start_line ${nextLine})`);
      const range =
        from > 1 || to !== Number.POSITIVE_INFINITY ? ` (lines ${from}-${to === Number.POSITIVE_INFINITY ? 'end' : to}: ${plural(total, 'symbol')})` : '';
      const structured: Record<string, unknown> = { ...statusFields(project, manifest, completeness), path, symbols: json, symbol_count: file.symbols.length };
      if (nextLine !== undefined) structured.next_start_line = nextLine;
      return {
        content: [{ type: 'text', text: [`${path}: ${plural(file.symbols.length, 'symbol')}${range}`, ...lines].join('\n') }],
        structuredContent: structured,
      };
    },
  });
}

export function createSymbolHierarchyTool(projects: ProjectService): ToolDefinition {
  return projectTool(projects, {
    name: 'get_symbol_hierarchy',
    title: 'Symbol hierarchy',
    description:
      'Shows where a symbol sits: its ancestors (the definitions that enclose it, innermost first) or its descendants (the definitions it ' +
      'encloses, as a tree). ' +
      'A name defined in several places needs path (or a qualified name such as Class.method); the error lists the candidates.',
    inputSchema: {
      type: 'object',
      properties: {
        symbol_name: { type: 'string', minLength: 1, maxLength: MAX_NAME_CHARS },
        path: { type: 'string', description: 'The file that defines it, to pick one of several' },
        line: PICK_LINE_SCHEMA,
        direction: { type: 'string', enum: ['ancestors', 'descendants'], default: 'ancestors' },
      },
      required: ['symbol_name'],
      additionalProperties: false,
    },
    outputSchema: {
      type: 'object',
      properties: {
        ...STATUS_PROPERTIES,
        symbol: SYMBOL_SCHEMA,
        direction: { type: 'string', enum: ['ancestors', 'descendants'] },
        ancestors: { type: 'array', items: SYMBOL_SCHEMA },
        descendants: { type: 'array', items: SYMBOL_SCHEMA },
      },
      required: [...STATUS_REQUIRED, 'symbol', 'direction'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    run(project, _resolved, args) {
      const { manifest } = requireSymbols(project);
      const { symbol, path } = resolveSymbol(project, args.symbol_name as string, args.path as string | undefined, args.line as number | undefined);
      const direction = args.direction === 'descendants' ? 'descendants' : 'ancestors';
      const others = fileSymbols(project, path).symbols.filter((other) => !sameSymbol(other, symbol));
      const structured: Record<string, unknown> = { ...statusFields(project, manifest, 'complete'), symbol: describeSymbol(symbol, path), direction };
      const lines = [`${symbol.kind} ${symbol.qualifiedName} (${path}:${symbol.line}-${symbol.endLine})`];
      if (direction === 'ancestors') {
        const ancestors = ancestorsOf(symbol, others);
        structured.ancestors = ancestors.map((ancestor) => describeSymbol(ancestor, path));
        lines.push(
          ...(ancestors.length > 0
            ? ancestors.map(
                (ancestor, depth) => `${'  '.repeat(depth + 1)}in ${ancestor.kind} ${ancestor.qualifiedName} (${ancestor.line}-${ancestor.endLine})`,
              )
            : ['  (top level)']),
        );
      } else {
        const inside = others.filter((other) => other.line >= symbol.line && other.endLine <= symbol.endLine);
        const { tree, kept, total } = pruneTree(outlineOf(inside), path, MAX_OUTPUT_CHARS / 2);
        structured.descendants = outlineJson(tree, path, true);
        if (kept < total) structured.result_completeness = 'truncated';
        const rendered: string[] = [];
        renderOutline(tree, 1, rendered);
        lines.push(...(rendered.length > 0 ? rendered : ['  (no nested definitions)']));
        if (kept < total) lines.push(`  (the first ${kept} of ${total} nested definitions, to stay within the output budget)`);
      }
      return { content: [{ type: 'text', text: lines.join('\n') }], structuredContent: structured };
    },
  });
}

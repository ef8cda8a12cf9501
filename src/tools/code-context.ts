/**
 * `get_code_context`: the definitions most relevant to a question, with their code, packed into
 * a token budget. Terms of the question are looked up as symbol names and as text; definitions
 * that match more terms, and match them more exactly, come first. "breadth" gives many
 * definitions with a few lines each, "depth" fewer with their whole bodies.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { lowValuePath } from '../index/path-signals.js';
import type { SymbolInfo } from '../index/symbols/types.js';
import type { ToolDefinition } from '../mcp/tools.js';
import type { ProjectService } from '../workspace/projects.js';
import { enclosingSymbol, estimateTokens, MAX_OUTPUT_CHARS, statusFields, STATUS_PROPERTIES, STATUS_REQUIRED } from './common.js';
import { toolError } from './error-codes.js';
import { projectTool } from './project-tool.js';
import { rankMatches } from './ranking.js';
import { requireSymbols } from './symbol-tools.js';
import { plural } from '../wording.js';

export const DEFAULT_CONTEXT_TOKENS = 4_000;
/** The most a caller may ask for: the output budget, less room for the structure around the code. */
export const MAX_CONTEXT_TOKENS = Math.floor(MAX_OUTPUT_CHARS / 4 / 2) - 500;
const BREADTH_LINES = 12;
/** Text matches of a term gathered, then ranked: the first TEXT_MENTIONS name definitions that mention it. */
const TEXT_POOL = 300;
const TEXT_MENTIONS = 60;
const DEPTH_LINES = 200;
const STOP_WORDS = new Set(['the', 'and', 'for', 'how', 'does', 'what', 'where', 'when', 'which', 'with', 'this', 'that', 'from', 'into', 'are', 'is', 'do', 'of', 'in', 'to', 'a', 'an', 'it', 'be', 'on', 'by', 'or', 'find', 'show', 'code', 'work', 'works', 'used', 'use']);

/** Identifier-like terms of a question, with camelCase and snake_case pieces. */
export function termsOf(query: string): string[] {
  const words = query.match(/[A-Za-z_$][\w$]*/g) ?? [];
  const terms = new Set<string>();
  for (const word of words) {
    if (word.length >= 3 && !STOP_WORDS.has(word.toLowerCase())) terms.add(word);
    for (const piece of word.split(/_|(?<=[a-z0-9])(?=[A-Z])/)) if (piece.length >= 4 && !STOP_WORDS.has(piece.toLowerCase())) terms.add(piece);
  }
  return [...terms].slice(0, 12);
}

interface Candidate {
  symbol: SymbolInfo;
  path: string;
  score: number;
  terms: Set<string>;
}

export function createCodeContextTool(projects: ProjectService): ToolDefinition {
  return projectTool(projects, {
    name: 'get_code_context',
    title: 'Get code context',
    description:
      'Gathers the definitions most relevant to a question (by the identifiers and words in it) with their code, packed into max_tokens ' +
      `(default ${DEFAULT_CONTEXT_TOKENS}). strategy "breadth" (default) gives many definitions with their first lines; "depth" gives fewer, whole. ` +
      'Reports estimated_tokens, whether it was truncated, and how many candidates did not fit.',
    inputSchema: {
      type: 'object',
      properties: {
        query: { type: 'string', minLength: 1, description: 'A question or some identifiers, e.g. "how does IndexReader verify candidates"' },
        max_tokens: { type: 'integer', minimum: 100, maximum: MAX_CONTEXT_TOKENS, default: DEFAULT_CONTEXT_TOKENS },
        strategy: { type: 'string', enum: ['breadth', 'depth'], default: 'breadth' },
      },
      required: ['query'],
      additionalProperties: false,
    },
    outputSchema: {
      type: 'object',
      properties: {
        ...STATUS_PROPERTIES,
        terms: { type: 'array', items: { type: 'string' } },
        strategy: { type: 'string', enum: ['breadth', 'depth'] },
        context_items: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              path: { type: 'string' },
              name: { type: 'string' },
              kind: { type: 'string' },
              qualified_name: { type: 'string' },
              line: { type: 'integer', minimum: 1 },
              end_line: { type: 'integer', minimum: 1 },
              code: { type: 'string' },
              code_truncated: { type: 'boolean' },
              matched_terms: { type: 'array', items: { type: 'string' } },
              tokens: { type: 'integer', minimum: 0 },
            },
            required: ['path', 'name', 'kind', 'qualified_name', 'line', 'end_line', 'code', 'matched_terms', 'tokens'],
            additionalProperties: false,
          },
        },
        estimated_tokens: { type: 'integer', minimum: 0 },
        max_tokens: { type: 'integer', minimum: 0 },
        truncated: { type: 'boolean' },
        remaining_candidates: { type: 'integer', minimum: 0 },
      },
      required: [...STATUS_REQUIRED, 'terms', 'strategy', 'context_items', 'estimated_tokens', 'max_tokens', 'truncated', 'remaining_candidates'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    async run(project, _resolved, args) {
      const { symbols, manifest } = requireSymbols(project);
      const terms = termsOf(args.query as string);
      if (terms.length === 0) throw toolError('invalid_input', 'The query has no identifier or word of 3 letters or more to look up', { argument: 'query' });
      const maxTokens = (args.max_tokens as number | undefined) ?? DEFAULT_CONTEXT_TOKENS;
      const strategy = args.strategy === 'depth' ? 'depth' : 'breadth';
      const candidates = new Map<string, Candidate>();
      const perFile = new Map<string, SymbolInfo[]>();
      const consider = (symbol: SymbolInfo, path: string, term: string, score: number): void => {
        const key = `${path}\0${symbol.line}\0${symbol.name}`;
        const known = candidates.get(key) ?? { symbol, path, score: 0, terms: new Set<string>() };
        if (!known.terms.has(term)) known.score += score;
        known.terms.add(term);
        candidates.set(key, known);
      };
      for (const term of terms) {
        // By name: the definitions called like the term.
        for (const found of symbols.find(term, { limit: 25 })) consider(found, found.path, term, found.score);
        // By text: the definitions whose code mentions it, the mentions taken in search_code's order (ranking.ts), not path order.
        const hits = await project.search.search({ pattern: term, caseSensitive: false, limit: TEXT_POOL, sourceFirst: true });
        for (const { match: hit } of rankMatches(symbols, hits.matches, term, false, false).slice(0, TEXT_MENTIONS)) {
          if (!perFile.has(hit.path)) perFile.set(hit.path, symbols.symbolsIn(hit.path) ?? []);
          const symbol = enclosingSymbol(perFile.get(hit.path)!, hit.line);
          if (symbol) consider(symbol, hit.path, term, 15);
        }
      }
      // More terms first, then source before tests, test data, vendored and generated code (as
      // search_code ranks), then better name matches; smaller definitions before huge ones at a tie.
      const ranked = [...candidates.values()].sort(
        (a, b) => b.terms.size - a.terms.size || Number(lowValuePath(a.path)) - Number(lowValuePath(b.path)) || b.score - a.score || a.symbol.endLine - a.symbol.line - (b.symbol.endLine - b.symbol.line) || a.path.localeCompare(b.path),
      );
      const items: Array<Record<string, unknown>> = [];
      let used = 0;
      let index = 0;
      const lines = new Map<string, string[]>();
      for (; index < ranked.length; index++) {
        const candidate = ranked[index]!;
        const { symbol, path } = candidate;
        if (!lines.has(path)) {
          try {
            lines.set(path, readFileSync(join(project.root, path), 'utf8').split('\n'));
          } catch {
            lines.set(path, []);
          }
        }
        const fileLines = lines.get(path)!;
        const span = strategy === 'depth' ? DEPTH_LINES : BREADTH_LINES;
        const end = Math.min(symbol.endLine, symbol.line + span - 1);
        const code = fileLines.slice(symbol.line - 1, end).join('\n');
        const tokens = estimateTokens(code) + 20;
        if (used + tokens > maxTokens) {
          if (items.length === 0 && tokens > maxTokens) continue; // too big alone: try the next one
          break;
        }
        used += tokens;
        const item: Record<string, unknown> = {
          path,
          name: symbol.name,
          kind: symbol.kind,
          qualified_name: symbol.qualifiedName,
          line: symbol.line,
          end_line: symbol.endLine,
          code,
          matched_terms: [...candidate.terms],
          tokens,
        };
        if (end < symbol.endLine) item.code_truncated = true;
        items.push(item);
      }
      // The token budget bounds the code; escaping in JSON and the text beside it could still pass
      // the output budget at the largest max_tokens: then the last items go.
      const render = (): { text: string; structured: Record<string, unknown> } => {
        const remaining = ranked.length - items.length;
        const truncated = remaining > 0;
        const text = [
          `${plural(items.length, 'definition')} for ${terms.join(', ')} (~${used} tokens of ${maxTokens}${truncated ? `; ${remaining} more candidates did not fit` : ''}):`,
          ...items.map((item) => `\n## ${String(item.kind)} ${String(item.qualified_name)} — ${String(item.path)}:${String(item.line)}-${String(item.end_line)}\n${String(item.code)}${item.code_truncated ? '\n…' : ''}`),
        ].join('\n');
        const structured = {
          ...statusFields(project, manifest, truncated ? 'truncated' : 'complete'),
          terms,
          strategy,
          context_items: items,
          estimated_tokens: used,
          max_tokens: maxTokens,
          truncated,
          remaining_candidates: remaining,
        };
        return { text, structured };
      };
      let rendered = render();
      while (items.length > 1 && rendered.text.length + JSON.stringify(rendered.structured).length > MAX_OUTPUT_CHARS) {
        used -= items.pop()!.tokens as number;
        rendered = render();
      }
      return { content: [{ type: 'text', text: rendered.text }], structuredContent: rendered.structured };
    },
  });
}

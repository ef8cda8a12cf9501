/**
 * A type found by its members: a question that says what a type's methods are called and do
 * ("acquire and release permits") may hold no word of the type's own name or doc (`Turnstile`).
 * Each member among the candidates brings its type in, and the type ranks at least MEMBER_SHARE
 * of its best member's score: after that member, never above it for the member's words alone.
 */
import type { SymbolInfo } from '../../index/symbols/index.js';

/** What a type is worth against its best member, at least (bench/RESULTS.md lists the shares tried). */
export const MEMBER_SHARE = 0.5;

const TYPE_KINDS = new Set(['class', 'struct', 'interface', 'trait', 'enum', 'record', 'union', 'type', 'module']);

/** The types a file defines, by name (the first of a name). */
export function typesIn(inFile: readonly SymbolInfo[]): Map<string, SymbolInfo> {
  const types = new Map<string, SymbolInfo>();
  for (const symbol of inFile) if (TYPE_KINDS.has(symbol.kind) && !types.has(symbol.name)) types.set(symbol.name, symbol);
  return types;
}

/**
 * The type `member` belongs to, among the types of its own file (typesIn): the one named as its
 * parent's last part (`Mutex` of `Mutex<T>::lock`, `Reader` of `bufio.Reader`).
 */
export function typeOf(member: SymbolInfo, types: ReadonlyMap<string, SymbolInfo>): SymbolInfo | undefined {
  const parent = member.parent;
  if (!parent) return undefined;
  const type = types.get(
    parent
      .split(/::|\.|#/)
      .pop()!
      .replace(/<.*$/, ''),
  );
  return type === member ? undefined : type;
}

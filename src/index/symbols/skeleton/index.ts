/**
 * Which skeleton a language is parsed as (skeleton-map.ts), and how the calls in what it cut are
 * found: C's own (c-skeleton.ts, c-calls.ts), or its family's by the rules table
 * (skeleton-rules.ts: brace-skeleton.ts, indent-skeleton.ts, keyword-skeleton.ts; lexical-calls.ts, and command-calls.ts for Ruby). A language
 * without rules, or a file whose skeleton cannot be made, is parsed whole.
 */
import { braceSkeleton } from './brace-skeleton.js';
import { scanCommandCalls } from './command-calls.js';
import { scanCalls } from './c-calls.js';
import { cSkeleton } from './c-skeleton.js';
import { indentSkeleton } from './indent-skeleton.js';
import { indentedEndSkeleton, keywordSkeleton } from './keyword-skeleton.js';
import { scanLexicalCalls } from './lexical-calls.js';
import type { Skeleton } from './skeleton-map.js';
import { SKELETON_RULES } from './skeleton-rules.js';

export type { Skeleton } from './skeleton-map.js';

export function skeletonOf(language: string, source: string): Skeleton | undefined {
  if (language === 'c') return cSkeleton(source);
  const rules = SKELETON_RULES[language];
  if (rules?.family === 'brace') return braceSkeleton(source, rules);
  if (rules?.family === 'indent') return indentSkeleton(source, rules);
  if (rules?.family === 'keyword') return rules.indentedEnds ? indentedEndSkeleton(source) : keywordSkeleton(source, rules);
  return undefined;
}

/** The calls in the parts `skeleton` cut from `source`: `found(name, index)`, in order. */
export function cutCalls(language: string, source: string, skeleton: Skeleton, found: (name: string, index: number) => void): void {
  const rules = SKELETON_RULES[language];
  if (rules?.indentedEnds) scanCommandCalls(source, skeleton.bodies, rules, found);
  else if (rules) scanLexicalCalls(source, skeleton.bodies, rules, found);
  else scanCalls(source, skeleton.bodies, found);
}

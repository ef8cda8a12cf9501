/**
 * Ranking definitions by the words of a plain-language question, BM25-style: each definition is
 * a small document of fields (the words of its name, of its parent, of its path, of its first
 * lines and doc comment, and the question's words found further in its body); a word counts by
 * how rare it is among the project's names, and a field saturates (a word said five times is not
 * five times the evidence). No model: words only.
 */

/**
 * Words a question uses that say nothing about code. `get` and `set` are among them for the
 * question's words ("how do I get…"), but a term written as code (getUser) keeps them.
 */
export const STOP_WORDS = new Set(
  (
    'a an and are as at be by can do does for from given how i in into is it its me my of on or should some that the their then this to use ' +
    'used uses using what when where which while who why with work works show code get set'
  ).split(' '),
);

/**
 * A word's stem, enough to meet plurals and -ing/-ed forms: a final `y`, `ie` or `ies` is `i`,
 * so `proxy` and `proxies` meet, and `cookie` and `cookies`.
 */
export function stem(word: string): string {
  let w = word.toLowerCase();
  if (w.length > 4 && /(ss|x|ch|sh)es$/.test(w)) w = w.slice(0, -2);
  else if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss') && !w.endsWith('us') && !w.endsWith('is')) w = w.slice(0, -1);
  if (w.length > 5 && w.endsWith('ing')) w = w.slice(0, -3);
  else if (w.length > 4 && w.endsWith('ed')) w = w.slice(0, -2);
  if (w.length > 3 && w.endsWith('ie')) w = w.slice(0, -1);
  else if (w.length > 3 && w.endsWith('y')) w = `${w.slice(0, -1)}i`;
  return w;
}

/** What a stem is looked for inside names by: without a final `i` (`prox` is in ProxyHandler, `cook` in extract_cookies). */
export function searchKey(stemmed: string): string {
  return stemmed.length > 3 && stemmed.endsWith('i') ? stemmed.slice(0, -1) : stemmed;
}

/** The stemmed words of code or prose: identifiers split at camelCase humps, `_`, digits and punctuation. */
export function wordsOf(text: string): string[] {
  const words: string[] = [];
  for (const token of text.match(/[A-Za-z][A-Za-z0-9]*/g) ?? []) {
    for (const piece of token.split(/(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])/)) if (piece.length >= 2) words.push(stem(piece));
  }
  return words;
}

/** The words of a question worth looking up: stemmed, no stop words, each once. */
export function questionWords(question: string): string[] {
  const seen = new Set<string>();
  for (const token of question.match(/[A-Za-z][A-Za-z0-9]*/g) ?? []) {
    for (const piece of token.split(/_|(?<=[a-z0-9])(?=[A-Z])/)) {
      if (piece.length < 3 || STOP_WORDS.has(piece.toLowerCase())) continue;
      seen.add(stem(piece));
    }
  }
  return [...seen];
}

export interface Fields {
  name: string[];
  parent: string[];
  path: string[];
  /** The definition's first lines and the comment just above it. */
  text: string[];
  /** Question words the text search found further inside it: the weakest evidence. */
  body: string[];
  /** The first sentence of its doc comment (doc-index.ts): what it is for, said once. */
  summary?: string[];
  /** The rest of its doc comment. */
  doc?: string[];
}

/** How much a word in each field says, and the field's usual length (BM25's length normalisation). */
const FIELDS: Record<keyof Fields, { weight: number; usual: number }> = {
  name: { weight: 3, usual: 3 },
  parent: { weight: 1.2, usual: 3 },
  path: { weight: 1, usual: 6 },
  text: { weight: 1, usual: 60 },
  body: { weight: 0.4, usual: 6 },
  summary: { weight: 2, usual: 10 },
  doc: { weight: 0.7, usual: 40 },
};
const K1 = 1.2;
const B = 0.75;

/**
 * How much more a definition that holds all of the question's words is worth than one holding
 * none of them besides the one it matches: the score is multiplied by (1 + the share of the
 * question's words covered) to this power. With that factor taken once, one rare word in a name
 * (`Hole`) outranked a doc that says most of what was asked; the power makes holding more of the
 * question count most (bench/RESULTS.md, context-relevance, lists the powers tried).
 */
const COVERAGE_POWER = 3;

/** Letters two words must share at their start to count as half a match: `resolution` and `resolve`, `configuration` and `config`. */
const SHARED_PREFIX = 5;

function sharePrefix(a: string, b: string): boolean {
  return a.length >= SHARED_PREFIX && b.length >= SHARED_PREFIX && a.startsWith(b.slice(0, SHARED_PREFIX));
}

/** A word's weight by rarity: `names` of the project's `total` names hold it. */
export function idf(names: number, total: number): number {
  return Math.log(1 + (total - names + 0.5) / (names + 0.5));
}

/**
 * The score of one definition for the question's words, each with its idf; and which words it
 * matched. `standsFor`: the words among them looked for in place of a question's word. A
 * definition that holds more of the question's words wins over one that repeats one.
 */
export function bm25(fields: Fields, words: Map<string, number>, standsFor?: Map<string, string>): { score: number; matched: string[] } {
  let score = 0;
  const matched: string[] = [];
  // The question's words covered: a synonym covers the word it stands for.
  const covered = new Set<string>();
  for (const [word, weight] of words) {
    let evidence = 0;
    let outsideBody = false;
    for (const field of Object.keys(FIELDS) as Array<keyof Fields>) {
      const list = fields[field];
      if (!list) continue;
      let tf = 0;
      for (const entry of list) tf += entry === word ? 1 : sharePrefix(entry, word) ? 0.5 : 0;
      if (tf === 0) continue;
      const { weight: fieldWeight, usual } = FIELDS[field];
      evidence += (fieldWeight * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * list.length) / usual));
      if (field !== 'body') outsideBody = true;
    }
    if (evidence > 0) {
      score += weight * evidence;
      matched.push(word);
      if (outsideBody) covered.add(standsFor?.get(word) ?? word);
    }
  }
  // Coverage: all of the question's words in one definition's name, place and doc is worth more
  // than their sum apart (words met only deep in a body do not count for it).
  const share = covered.size / Math.max(1, words.size - (standsFor?.size ?? 0));
  return { score: score * (1 + share) ** COVERAGE_POWER, matched };
}

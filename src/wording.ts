/** Counts in English for the text a model reads: "1 match", "2 matches", "an index job". */

/** `count` and the noun, plural unless the count is one (`plural(2, 'match', 'matches')`). */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : pluralForm}`;
}

/** The text with its first letter in capitals, to open a sentence. */
export function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The indefinite article for a word: "an index", "a sync" (by its first letter, which serves the words we use). */
export function article(word: string): string {
  return /^[aeiou]/i.test(word) ? `an ${word}` : `a ${word}`;
}

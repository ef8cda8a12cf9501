/** A search's failures as the tool errors a caller reads: what to fix, or that the search ran too long. */
import { BadPatternError, DEFAULT_SEARCH_BUDGET_MS, PatternTooExpensiveError } from '../../index/search/index.js';
import { BadGlobError } from '../../index/files/index.js';
import { codedError } from '../../errors.js';

/** A search's failure as the tool error it is (a glob or pattern the caller must fix, a search over budget). */
export function toolError(error: unknown): unknown {
  if (error instanceof PatternTooExpensiveError)
    return codedError('pattern_too_expensive', `The search ran over its ${DEFAULT_SEARCH_BUDGET_MS} ms budget and was stopped`);
  if (error instanceof BadGlobError) return codedError('invalid_input', error.message, { argument: 'path' }, 'Fix the glob, or leave path out.');
  if (error instanceof BadPatternError) {
    return codedError(
      'invalid_input',
      error.message,
      { argument: 'query' },
      'Fix the regular expression (JavaScript syntax), or search for the literal text with regex: false.',
    );
  }
  return error;
}

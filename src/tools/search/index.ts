/** search_code's room: the tool, its answers per project and across projects, and the CLI's ranked search. */
export { createSearchCodeTool } from './search-code.js';
export { RANKING_POOL } from './answers.js';
export { rankedSearch } from './ranked-search.js';

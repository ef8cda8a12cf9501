/**
 * The first page of a ranked search: the plan that chooses how to find it (plan.ts), the page
 * the definitions decide alone (definitions-only.ts), and a literal's search read only as far as
 * its page needs (early-page.ts), with the pool it shares with other projects (shared-pool.ts).
 */
export { definitionsFirst } from './definitions-only.js';
export { EarlyReading, type FirstResults, mayStopEarly, PageTally, readUntilCertain, searchFirstResults } from './early-page.js';
export { type Certainty, firstPagePlan, type FirstPageWay, serves } from './plan.js';
export { type Pooled, SharedPool } from './shared-pool.js';

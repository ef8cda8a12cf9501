/**
 * The projects this server knows by name (the catalog: `sextant project add`), as it serves them:
 * where each one's files are here, and for one from a git remote, the commit it serves and the one
 * it should. The team follower (src/team) keeps it current; tools and detection read it, so that a
 * remote client names a project (`workspace: "web"`, `?project=web`, a root called web) rather
 * than a path on this machine.
 */
import { projectKey } from '../util/project-key.js';

export interface NamedProject {
  /** As registered (names are unique regardless of case). */
  readonly name: string;
  /** The folder its files are in on this server: a checkout of its remote, or a registered folder. */
  readonly root: string;
  /** For a project from a git remote: where from. */
  readonly git?: { url: string; ref: string };
  /** Who may see it once identities are configured (the catalog's WHO list, read again at each poll). */
  allowed: readonly string[];
  /** The commit whose files and index are served now (git projects, once one is). */
  servedCommit?: string;
  /** The commit this replica should serve (what the controller published), once known. */
  targetCommit?: string;
  /** The generation that published `targetCommit` (written beside a checkout, with the commit it serves). */
  targetGeneration?: number;
  /**
   * Set while the checkout holds another commit than the one served (a catch-up under way, or
   * one that failed after its checkout): a file's bytes at the served commit, for the tools that
   * read files, so that they answer from the commit their index serves.
   */
  readServed?: (path: string) => Promise<Buffer | undefined>;
  /** What the replica is doing to catch up, or why it cannot: for /health and list_projects. */
  state: 'waiting' | 'fetching' | 'indexing' | 'ready' | 'failed';
  error?: string;
  /** How the last catch-up to a new commit spent its time (git projects): for /health and the scale-out bench. */
  lastCatchUp?: CatchUp;
}

interface CatchUp {
  readonly commit: string;
  /** The shallow fetch and checkout (0 when the files were there already). */
  readonly fetchMs: number;
  /** The text index: a build, or a sync of what the commit changed. */
  readonly textMs: number;
  /** Symbols of what changed (0 when none had to be read). */
  readonly symbolsMs: number;
}

export class NamedProjects {
  readonly #byName = new Map<string, NamedProject>();

  list(): NamedProject[] {
    return [...this.#byName.values()].sort((a, b) => a.name.localeCompare(b.name));
  }

  get(name: string): NamedProject | undefined {
    return this.#byName.get(projectKey(name));
  }

  /** The named project whose files are at `root`, if any (to say which commit an answer came from). */
  atRoot(root: string): NamedProject | undefined {
    return this.list().find((project) => project.root === root);
  }

  set(project: NamedProject): void {
    this.#byName.set(projectKey(project.name), project);
  }

  delete(name: string): void {
    this.#byName.delete(projectKey(name));
  }

  /** The git projects that do not serve their target commit yet: what /ready waits for. */
  behind(): NamedProject[] {
    return this.list().filter((project) => project.git && (project.targetCommit === undefined || project.servedCommit !== project.targetCommit));
  }
}

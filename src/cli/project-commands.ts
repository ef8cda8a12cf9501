/**
 * `sextant project add|list|remove|refresh|allow|disallow`: the projects a home (or, with
 * --database-url, a team) serves by name, and who may see each once identities are configured.
 * Against files under SEXTANT_HOME for one machine, or PostgreSQL for replicas.
 * A git project is checked before it is registered (the remote answers, the branch exists), so a
 * bad URL or ref is refused and nothing is half-registered.
 */
import { withoutCredentials } from '../util/credentials.js';
import { isAbsolute, resolve } from 'node:path';
import { existsSync, realpathSync, statSync } from 'node:fs';
import { checkWho, InvalidEntryError, openCoordination, type CatalogProject, type Coordination } from '../coordination/index.js';
import { sextantHome } from '../index/store/index.js';
import { CONTROLLER_LEASE, defaultBranch, publishTargets, resolveRef } from '../team/index.js';
import type { Output } from './output.js';
import type { ProjectAction } from './choices.js';
import { UsageError } from './usage.js';

export interface ProjectArgs {
  action: ProjectAction;
  name?: string;
  git?: string;
  ref?: string;
  folder?: string;
  /** allow, disallow: user:SUB, group:NAME, token:NAME or everyone. */
  who?: string;
  /** add: who may see it. */
  allow?: string[];
  json?: boolean;
  databaseUrl?: string;
}

export async function projectCommand(args: ProjectArgs, output: Output): Promise<number> {
  if (args.action !== 'list' && !args.name) throw new UsageError(`sextant project ${args.action} needs the project's NAME`);
  if (args.action !== 'add' && (args.git !== undefined || args.folder !== undefined || args.ref !== undefined || args.allow !== undefined)) {
    throw new UsageError('--git, --ref, --folder and --allow go with "sextant project add"');
  }
  const changesAccess = args.action === 'allow' || args.action === 'disallow';
  if (changesAccess !== (args.who !== undefined)) {
    throw new UsageError(
      changesAccess ? `sextant project ${args.action} NAME needs WHO: user:SUB, group:NAME, token:NAME or everyone` : `WHO goes with allow and disallow`,
    );
  }
  // A WHO that is not one is the user's mistake: said before anything is opened.
  for (const who of [...(args.allow ?? []), ...(args.who !== undefined ? [args.who] : [])]) {
    try {
      checkWho(who);
    } catch (error) {
      if (error instanceof InvalidEntryError) throw new UsageError(error.message);
      throw error;
    }
  }
  const coordination = await openCoordination(sextantHome(), { databaseUrl: args.databaseUrl });
  try {
    switch (args.action) {
      case 'add':
        return await add(coordination, args, output);
      case 'list':
        return await list(coordination, args.json === true, output);
      case 'remove':
        return await remove(coordination, args.name!, output);
      case 'refresh':
        return await refresh(coordination, args.name!, output);
      case 'allow':
      case 'disallow':
        return await changeAccess(coordination, args.action, args.name!, args.who!, output);
    }
  } finally {
    await coordination.close();
  }
}

async function add(coordination: Coordination, args: ProjectArgs, output: Output): Promise<number> {
  const name = args.name!;
  if ((args.git === undefined) === (args.folder === undefined)) throw new UsageError('sextant project add NAME needs one of --git URL or --folder PATH');
  if (args.ref !== undefined && args.git === undefined) throw new UsageError('--ref goes with --git');
  let project: CatalogProject;
  let commit: string | undefined;
  if (args.folder !== undefined) {
    const given = resolve(args.folder);
    if (!existsSync(given) || !statSync(given).isDirectory()) throw new Error(`No such directory: ${args.folder}`);
    // Its real path: what a client names, once links are resolved, is compared with it.
    const folder = realpathSync(given);
    project = { name, location: { folder }, allowed: args.allow ?? [] };
  } else {
    const url = args.git!;
    // A local path is a remote too; as a file:// URL it means the same on every replica.
    const remote = isAbsolute(url) ? `file://${url}` : url;
    const ref = args.ref ?? (await defaultBranch(remote));
    commit = await resolveRef(remote, ref);
    project = { name, location: { git: remote, ref }, allowed: args.allow ?? [] };
  }
  await coordination.catalog.add(project);
  if ('folder' in project.location) {
    output.out(`Added ${name}: the folder ${project.location.folder}\n`);
    return 0;
  }
  output.out(`Added ${name}: ${withoutCredentials(project.location.git)} at ${project.location.ref} (${commit!.slice(0, 12)})\n`);
  await publishOrAsk(coordination, name, output);
  return 0;
}

async function list(coordination: Coordination, json: boolean, output: Output): Promise<number> {
  const projects = await coordination.catalog.list();
  const rows = await Promise.all(
    projects.map(async (project) => {
      const target = 'git' in project.location ? await coordination.generations.current(project.name) : undefined;
      return { ...project, ...(target && { target: { commit: target.source, generation: target.number, committed_at: target.committedAt } }) };
    }),
  );
  if (json) {
    output.out(`${withoutCredentials(JSON.stringify({ catalog: coordination.describe, projects: rows }))}\n`);
    return 0;
  }
  if (rows.length === 0) {
    output.err(`No project is registered (${coordination.describe}); add one with: sextant project add NAME --git URL\n`);
    return 0;
  }
  for (const row of rows) {
    const where = 'folder' in row.location ? `folder ${row.location.folder}` : `${withoutCredentials(row.location.git)} ${row.location.ref}`;
    const at = row.target
      ? ` at ${row.target.commit?.slice(0, 12)} (generation ${row.target.generation})`
      : 'git' in row.location
        ? ' (no commit published yet)'
        : '';
    const who = row.allowed && row.allowed.length > 0 ? `\tallowed: ${row.allowed.join(', ')}` : '';
    output.out(`${row.name}\t${where}${at}${who}\n`);
  }
  return 0;
}

async function changeAccess(coordination: Coordination, action: 'allow' | 'disallow', name: string, who: string, output: Output): Promise<number> {
  const changed = action === 'allow' ? await coordination.catalog.allow(name, who) : await coordination.catalog.disallow(name, who);
  if (!changed) {
    output.err(`sextant: no project named ${JSON.stringify(name)} is registered\n`);
    return 1;
  }
  const allowed = (await coordination.catalog.get(name))?.allowed ?? [];
  const now = allowed.length > 0 ? allowed.join(', ') : 'admins only';
  const done = action === 'allow' ? 'Allowed' : 'Disallowed';
  output.out(`${done} ${checkWho(who)} on ${name}; who may see it now: ${now} (servers apply it within their next catalog read)\n`);
  return 0;
}

async function remove(coordination: Coordination, name: string, output: Output): Promise<number> {
  if (!(await coordination.catalog.remove(name))) {
    output.err(`sextant: no project named ${JSON.stringify(name)} is registered\n`);
    return 1;
  }
  output.out(`Removed ${name}: replicas stop serving it within their next catalog read\n`);
  return 0;
}

async function refresh(coordination: Coordination, name: string, output: Output): Promise<number> {
  const project = await coordination.catalog.get(name);
  if (!project) {
    output.err(`sextant: no project named ${JSON.stringify(name)} is registered\n`);
    return 1;
  }
  if (!('git' in project.location)) {
    output.err(`sextant: ${name} is a folder, not a git project: a running server follows its files itself\n`);
    return 1;
  }
  await resolveRef(project.location.git, project.location.ref); // a remote that cannot be read is said here, not only in a log
  await publishOrAsk(coordination, project.name, output);
  return 0;
}

/**
 * Publishes the project's commit if no controller runs (this command takes the lease for the
 * moment), else asks the controller, which looks at once.
 */
async function publishOrAsk(coordination: Coordination, name: string, output: Output): Promise<void> {
  const lease = await coordination.leases.acquire(CONTROLLER_LEASE, `cli ${coordination.replica}`);
  if (!lease) {
    await coordination.generations.requestRefresh(name);
    output.out(`Asked the controller to look at ${name} now\n`);
    return;
  }
  try {
    const published = await publishTargets(coordination, lease, undefined, name);
    const current = await coordination.generations.current(name);
    output.out(
      published > 0
        ? `Published ${current!.source?.slice(0, 12)} for ${name} (generation ${current!.number})\n`
        : `${name} is already at ${current?.source?.slice(0, 12)}\n`,
    );
  } finally {
    await coordination.leases.release(lease);
  }
}

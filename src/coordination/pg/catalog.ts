/**
 * The project catalog in PostgreSQL: one row per project, keyed by its lower-cased name so that
 * names are unique regardless of case; an insert that finds the key taken inserts nothing. Who may
 * see a project is one row per WHO, removed with the project.
 */
import { projectKey } from '../../util/project-key.js';
import { checkCatalogProject } from '../catalog-entry.js';
import type { CatalogProject, ProjectCatalog } from '../contracts.js';
import { checkProjectName, checkWho, ProjectExistsError } from '../refusals.js';
import type { Sql } from './database.js';

interface Row {
  name: string;
  location: CatalogProject['location'];
  allowed: string[];
}

/** Each project with its WHO list (empty when nobody is named). */
const WITH_ALLOWED =
  "select p.name, p.location, coalesce(jsonb_agg(a.who) filter (where a.who is not null), '[]'::jsonb) as allowed " +
  'from sextant_projects p left join sextant_project_access a on a.project = p.key';

export class PgProjectCatalog implements ProjectCatalog {
  readonly #sql: Sql;

  constructor(sql: Sql) {
    this.#sql = sql;
  }

  async list(): Promise<CatalogProject[]> {
    const rows = await this.#sql.unsafe<Row[]>(`${WITH_ALLOWED} group by p.key`);
    return rows.map((row) => checkCatalogProject(row)).sort((a, b) => a.name.localeCompare(b.name));
  }

  async get(name: string): Promise<CatalogProject | undefined> {
    const [row] = await this.#sql.unsafe<Row[]>(`${WITH_ALLOWED} where p.key = $1 group by p.key`, [projectKey(checkProjectName(name))]);
    return row && checkCatalogProject(row);
  }

  async add(project: CatalogProject): Promise<void> {
    const entry = checkCatalogProject(project);
    const key = projectKey(entry.name);
    await this.#sql.begin(async (tx) => {
      const inserted = await tx`
        insert into sextant_projects (key, name, location) values (${key}, ${entry.name}, ${tx.json(entry.location)})
        on conflict do nothing returning key`;
      if (inserted.length === 0) throw new ProjectExistsError(entry.name);
      for (const who of entry.allowed ?? []) await tx`insert into sextant_project_access (project, who) values (${key}, ${who})`;
    });
  }

  async allow(name: string, who: string): Promise<boolean> {
    const entry = checkWho(who);
    const key = projectKey(checkProjectName(name));
    const [row] = await this.#sql<{ key: string }[]>`
      insert into sextant_project_access (project, who) select key, ${entry} from sextant_projects where key = ${key}
      on conflict do nothing returning project as key`;
    return row !== undefined || (await this.get(name)) !== undefined;
  }

  async disallow(name: string, who: string): Promise<boolean> {
    const entry = checkWho(who);
    const key = projectKey(checkProjectName(name));
    await this.#sql`delete from sextant_project_access where project = ${key} and who = ${entry}`;
    return (await this.get(name)) !== undefined;
  }

  async remove(name: string): Promise<boolean> {
    const deleted = await this.#sql`delete from sextant_projects where key = ${projectKey(checkProjectName(name))} returning key`;
    return deleted.length > 0;
  }
}

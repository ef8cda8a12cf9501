/**
 * The project catalog in PostgreSQL: one row per project, keyed by its lower-cased name so that
 * names are unique regardless of case; an insert that finds the key taken inserts nothing.
 */
import { projectKey } from '../../util/project-key.js';
import { checkCatalogProject } from '../catalog-entry.js';
import type { CatalogProject, ProjectCatalog } from '../contracts.js';
import { checkProjectName, ProjectExistsError } from '../refusals.js';
import type { Sql } from './database.js';

interface Row {
  name: string;
  location: CatalogProject['location'];
}

export class PgProjectCatalog implements ProjectCatalog {
  readonly #sql: Sql;

  constructor(sql: Sql) {
    this.#sql = sql;
  }

  async list(): Promise<CatalogProject[]> {
    const rows = await this.#sql<Row[]>`select name, location from sextant_projects`;
    return rows.map((row) => checkCatalogProject(row)).sort((a, b) => a.name.localeCompare(b.name));
  }

  async get(name: string): Promise<CatalogProject | undefined> {
    const [row] = await this.#sql<Row[]>`select name, location from sextant_projects where key = ${projectKey(checkProjectName(name))}`;
    return row && checkCatalogProject(row);
  }

  async add(project: CatalogProject): Promise<void> {
    const entry = checkCatalogProject(project);
    const inserted = await this.#sql`
      insert into sextant_projects (key, name, location) values (${projectKey(entry.name)}, ${entry.name}, ${this.#sql.json(entry.location)})
      on conflict do nothing returning key`;
    if (inserted.length === 0) throw new ProjectExistsError(entry.name);
  }

  async remove(name: string): Promise<boolean> {
    const deleted = await this.#sql`delete from sextant_projects where key = ${projectKey(checkProjectName(name))} returning key`;
    return deleted.length > 0;
  }
}

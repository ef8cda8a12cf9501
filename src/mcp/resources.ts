/**
 * Resources and resource templates: listing (paginated, stable order) and reading. Sextant's
 * default server registers none yet; the registry answers correctly when empty.
 */
import { ResourceNotFoundError } from '../jsonrpc/index.js';
import { listResult } from './pagination.js';

export interface ResourceContents {
  uri: string;
  mimeType?: string;
  text?: string;
  blob?: string;
}

export interface ResourceDefinition {
  uri: string;
  name: string;
  description?: string;
  mimeType?: string;
  read(): Promise<ResourceContents[]> | ResourceContents[];
}

export interface ResourceTemplateDefinition {
  uriTemplate: string;
  name: string;
  description?: string;
  mimeType?: string;
}

export class ResourceRegistry {
  readonly #resources = new Map<string, ResourceDefinition>();
  readonly #templates = new Map<string, ResourceTemplateDefinition>();

  register(resource: ResourceDefinition): this {
    if (this.#resources.has(resource.uri)) throw new TypeError(`Resource "${resource.uri}" is already registered`);
    this.#resources.set(resource.uri, resource);
    return this;
  }

  registerTemplate(template: ResourceTemplateDefinition): this {
    if (this.#templates.has(template.uriTemplate)) throw new TypeError(`Template "${template.uriTemplate}" is already registered`);
    this.#templates.set(template.uriTemplate, template);
    return this;
  }

  list(cursor: unknown): Record<string, unknown> {
    const sorted = [...this.#resources.values()].sort((a, b) => compare(a.uri, b.uri));
    return listResult('resources', sorted, (resource) => resource.uri, cursor, ({ read: _read, ...described }) => described);
  }

  listTemplates(cursor: unknown): Record<string, unknown> {
    const sorted = [...this.#templates.values()].sort((a, b) => compare(a.uriTemplate, b.uriTemplate));
    return listResult('resourceTemplates', sorted, (template) => template.uriTemplate, cursor, (template) => ({ ...template }));
  }

  has(uri: string): boolean {
    return this.#resources.has(uri);
  }

  async read(uri: string): Promise<{ contents: ResourceContents[] }> {
    const resource = this.#resources.get(uri);
    if (!resource) throw new ResourceNotFoundError(uri);
    return { contents: await resource.read() };
  }
}

export function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

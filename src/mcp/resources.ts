/**
 * Resources and resource templates: listing (paginated, stable order), reading (static URIs
 * first, then templates), and which URIs a client may subscribe to.
 */
import { InputRequired, type RoundInput } from './multi-round-trip.js';
import { ResourceNotFoundError } from './errors.js';
import { listResult } from './pagination.js';
import { servedIn, type Introduced, type RequestEra } from './request-era.js';

export interface ResourceContents {
  uri: string;
  mimeType?: string;
  text?: string;
  blob?: string;
}

export interface ResourceDefinition extends Introduced {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  /** With `input` (a stateless request) it may ask the client for input instead (multi round-trip requests). */
  read(input?: RoundInput): Promise<ResourceContents[] | InputRequired> | ResourceContents[] | InputRequired;
}

export interface ResourceTemplateDefinition {
  /** RFC 6570 level 1: `{name}` stands for one path-safe value. */
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  read(uri: string, variables: Record<string, string>): Promise<ResourceContents[]> | ResourceContents[];
}

interface CompiledTemplate {
  definition: ResourceTemplateDefinition;
  pattern: RegExp;
  names: string[];
}

function compileTemplate(definition: ResourceTemplateDefinition): CompiledTemplate {
  const names: string[] = [];
  const source = definition.uriTemplate
    .split(/(\{[A-Za-z0-9_]+\})/)
    .map((part) => {
      const variable = /^\{([A-Za-z0-9_]+)\}$/.exec(part);
      if (!variable) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      names.push(variable[1]!);
      return '([^/?#]+)';
    })
    .join('');
  return { definition, pattern: new RegExp(`^${source}$`), names };
}

export class ResourceRegistry {
  readonly #resources = new Map<string, ResourceDefinition>();
  readonly #templates = new Map<string, CompiledTemplate>();

  register(resource: ResourceDefinition): this {
    if (this.#resources.has(resource.uri)) throw new TypeError(`Resource "${resource.uri}" is already registered`);
    this.#resources.set(resource.uri, resource);
    return this;
  }

  registerTemplate(template: ResourceTemplateDefinition): this {
    if (this.#templates.has(template.uriTemplate)) throw new TypeError(`Template "${template.uriTemplate}" is already registered`);
    this.#templates.set(template.uriTemplate, compileTemplate(template));
    return this;
  }

  list(cursor: unknown, era: RequestEra): Record<string, unknown> {
    const sorted = [...this.#resources.values()].filter((resource) => servedIn(resource, era)).sort((a, b) => compare(a.uri, b.uri));
    return listResult(
      'resources',
      sorted,
      (resource) => resource.uri,
      cursor,
      ({ read: _read, since: _since, ...described }) => described,
    );
  }

  listTemplates(cursor: unknown): Record<string, unknown> {
    const sorted = [...this.#templates.values()].map((t) => t.definition).sort((a, b) => compare(a.uriTemplate, b.uriTemplate));
    return listResult(
      'resourceTemplates',
      sorted,
      (template) => template.uriTemplate,
      cursor,
      ({ read: _read, ...described }) => described,
    );
  }

  /** Whether `uri` names a resource served in `era`, or matches a template. */
  has(uri: string, era: RequestEra): boolean {
    const resource = this.#resources.get(uri);
    return (resource !== undefined && servedIn(resource, era)) || this.#match(uri) !== undefined;
  }

  /** The contents; with `input` (a stateless request), possibly InputRequired instead. */
  async read(uri: string, era: RequestEra, input?: RoundInput): Promise<{ contents: ResourceContents[] } | InputRequired> {
    const resource = this.#resources.get(uri);
    if (resource && servedIn(resource, era)) {
      const read = await resource.read(input);
      return read instanceof InputRequired ? read : { contents: read };
    }
    const matched = this.#match(uri);
    if (!matched) throw new ResourceNotFoundError(uri);
    return { contents: await matched.template.definition.read(uri, matched.variables) };
  }

  #match(uri: string): { template: CompiledTemplate; variables: Record<string, string> } | undefined {
    for (const template of this.#templates.values()) {
      const match = template.pattern.exec(uri);
      if (!match) continue;
      const variables = Object.fromEntries(template.names.map((name, i) => [name, decodeURIComponent(match[i + 1]!)]));
      return { template, variables };
    }
    return undefined;
  }
}

export function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The resources and prompts the official conformance suite (@modelcontextprotocol/conformance
 * 0.1.16) reads, by the names its scenarios use. Served only with `--profile conformance`.
 */
import type { PromptRegistry, ResourceRegistry } from '../mcp/index.js';

/** A 1×1 PNG and a silent, empty WAV: the smallest valid media for content-type checks. */
export const TINY_PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
export const SILENT_WAV_BASE64 = 'UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQAAAAA=';

const STATIC_TEXT_URI = 'test://static-text';

export function registerConformanceResources(resources: ResourceRegistry): void {
  resources.register({
    uri: STATIC_TEXT_URI,
    name: 'static-text',
    description: 'A fixed text resource',
    mimeType: 'text/plain',
    read: () => [{ uri: STATIC_TEXT_URI, mimeType: 'text/plain', text: 'This is the content of the static text resource.' }],
  });
  resources.register({
    uri: 'test://static-binary',
    name: 'static-binary',
    description: 'A fixed binary resource (a 1x1 PNG)',
    mimeType: 'image/png',
    read: () => [{ uri: 'test://static-binary', mimeType: 'image/png', blob: TINY_PNG_BASE64 }],
  });
  resources.register({
    uri: 'test://watched-resource',
    name: 'watched-resource',
    description: 'A resource clients may subscribe to',
    mimeType: 'text/plain',
    read: () => [{ uri: 'test://watched-resource', mimeType: 'text/plain', text: 'Watched resource content' }],
  });
  resources.registerTemplate({
    uriTemplate: 'test://template/{id}/data',
    name: 'template-data',
    description: 'Data for any id',
    mimeType: 'application/json',
    read: (uri, { id }) => [{ uri, mimeType: 'application/json', text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }) }],
  });
}

export function registerConformancePrompts(prompts: PromptRegistry): void {
  prompts.register({
    name: 'test_simple_prompt',
    description: 'A prompt without arguments',
    get: () => ({ messages: [{ role: 'user', content: { type: 'text', text: 'This is a simple prompt for testing.' } }] }),
  });
  prompts.register({
    name: 'test_prompt_with_arguments',
    description: 'A prompt with two required arguments',
    arguments: [
      { name: 'arg1', description: 'First test argument', required: true },
      { name: 'arg2', description: 'Second test argument', required: true },
    ],
    get: ({ arg1, arg2 }) => ({
      messages: [{ role: 'user', content: { type: 'text', text: `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'` } }],
    }),
    complete: (argument, value) => {
      const candidates = argument === 'arg1' ? ['paris', 'park', 'party'] : ['red', 'green', 'blue'];
      return candidates.filter((candidate) => candidate.startsWith(value));
    },
  });
  prompts.register({
    name: 'test_prompt_with_embedded_resource',
    description: 'A prompt that embeds a resource',
    arguments: [{ name: 'resourceUri', description: 'URI of the resource to embed', required: true }],
    get: ({ resourceUri }) => ({
      messages: [
        {
          role: 'user',
          content: { type: 'resource', resource: { uri: resourceUri!, mimeType: 'text/plain', text: 'Embedded resource content for testing.' } },
        },
        { role: 'user', content: { type: 'text', text: 'Please process the embedded resource above.' } },
      ],
    }),
  });
  prompts.register({
    name: 'test_prompt_with_image',
    description: 'A prompt with an image',
    get: () => ({
      messages: [
        { role: 'user', content: { type: 'image', data: TINY_PNG_BASE64, mimeType: 'image/png' } },
        { role: 'user', content: { type: 'text', text: 'Please analyze the image above.' } },
      ],
    }),
  });
}

/**
 * The conformance profile (`serve --profile conformance`): the fixtures the official conformance
 * suites call (tools, resources, prompts, tasks and multi round-trip ones), kept out of the
 * product's tools. The front door is one function that registers them all.
 */
import type { PromptRegistry, ResourceRegistry, ToolRegistry } from '../mcp/index.js';
import { registerConformancePrompts, registerConformanceResources } from './fixtures.js';
import { CONFORMANCE_MRTR_PROMPT, CONFORMANCE_MRTR_RESOURCE, conformanceMrtrTools } from './mrtr-fixtures.js';
import { conformanceTaskTools } from './task-fixtures.js';
import { conformanceTools } from './tools.js';

export function registerConformanceProfile(registries: { tools: ToolRegistry; resources: ResourceRegistry; prompts: PromptRegistry }): void {
  for (const tool of [...conformanceTools(), ...conformanceMrtrTools(), ...conformanceTaskTools()]) registries.tools.register(tool);
  registerConformanceResources(registries.resources);
  registerConformancePrompts(registries.prompts);
  registries.prompts.register(CONFORMANCE_MRTR_PROMPT);
  registries.resources.register(CONFORMANCE_MRTR_RESOURCE);
}

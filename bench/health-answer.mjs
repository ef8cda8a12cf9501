// The answer of Sextant's health_check when no project is detected, field for field and line for
// line, for the official SDK peers of the round-trip benches. Each server then sends the same
// bytes: the JSON work on both sides of the pipe (the server's stringify, the client's parse)
// grows with the answer, and comparing a 519-byte answer with a 347-byte one favoured the smaller.
// Sextant's own tool still does more per call (project detection, the project list). Bench-only.
import { z } from 'zod';

const NO_PROJECT_MESSAGE = 'No project detected. Set SEXTANT_PROJECT or use --project-from-cwd.';

/** The output schema as a zod shape (v1's registerTool takes the shape, v2's a z.object of it). */
export const healthShape = {
  status: z.enum(['ready', 'warming', 'indexing', 'error']),
  version: z.string(),
  uptime_seconds: z.number().min(0),
  transport: z.string(),
  protocol_version: z.string(),
  session_project: z.object({ root: z.string(), source: z.string() }).nullable(),
  detection_note: z.string().optional(),
  indexing_status: z.enum(['not_indexed', 'indexing', 'ready', 'failed']),
  result_completeness: z.enum(['complete']),
  projects: z.array(z.object({ root: z.string(), status: z.string(), pinned: z.boolean(), sources: z.array(z.string()) })),
};

export function healthAnswer({ version, startedAt, transport, protocolVersion }) {
  const structuredContent = {
    status: 'ready',
    version,
    uptime_seconds: Math.max(0, Math.round((Date.now() - startedAt) / 100) / 10),
    transport,
    protocol_version: protocolVersion,
    session_project: null,
    indexing_status: 'not_indexed',
    result_completeness: 'complete',
    projects: [],
    detection_note: NO_PROJECT_MESSAGE,
  };
  const text = `Sextant ${version}: ready; up ${structuredContent.uptime_seconds} s over ${transport}, MCP ${protocolVersion}.\n${NO_PROJECT_MESSAGE}`;
  return { content: [{ type: 'text', text }], structuredContent };
}

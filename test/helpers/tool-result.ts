/** A tool call's result as every test reads it, whichever client made the call. */
export interface ToolResult {
  content: Array<{ type: string; text: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  _meta?: Record<string, unknown>;
}

/** The stable code of a failed tool result (`_meta["dev.sextant/error"].code`). */
export function errorCode(result: ToolResult): string | undefined {
  return (result._meta?.['dev.sextant/error'] as { code?: string } | undefined)?.code;
}

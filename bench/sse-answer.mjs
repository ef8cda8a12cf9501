// Shared by the HTTP benchmarks: the JSON-RPC answer in a Streamable HTTP response, whether it
// came as plain JSON or as SSE events.
export function answerOf(contentType, text) {
  if (!contentType?.startsWith('text/event-stream')) return JSON.parse(text);
  for (const line of text.split('\n')) {
    if (!line.startsWith('data: ') || line.length < 8) continue;
    const message = JSON.parse(line.slice(6));
    if ('result' in message || 'error' in message) return message;
  }
  throw new Error(`no answer in an SSE body: ${text.slice(0, 200)}`);
}

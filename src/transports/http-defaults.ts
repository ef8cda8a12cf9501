/** Where the HTTP listener listens unless told otherwise (a leaf: the CLI lists these without loading the listener). */
export const DEFAULT_PORT = 3000;
export const DEFAULT_BIND = '127.0.0.1';
/**
 * Open connections at once (every transport: SSE streams and WebSockets hold one each). Past it a
 * new connection is closed as it arrives, and those already open keep being served. Well below
 * the usual descriptor limit of 1,024, which the index's files share.
 */
export const DEFAULT_MAX_CONNECTIONS = 512;
/**
 * Bytes one connection may have queued toward a client that does not read (a WebSocket, an SSE
 * stream). Past it the connection is dropped, with a warning in the log: the client was not
 * reading its answers, and holding them would grow the server without bound.
 */
export const DEFAULT_MAX_QUEUED_OUTPUT_BYTES = 16 * 1024 * 1024;

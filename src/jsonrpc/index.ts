export * from './errors.js';
export * from './messages.js';
export * from './peer.js';
export type { OutboundInfo, ProgressUpdate, RequestContext, RequestHandler, RequestOptions, Result } from './handlers.js';
export * from './bounded.js';
export { InboundRequest, respond, type RequestSender } from './inbound-request.js';

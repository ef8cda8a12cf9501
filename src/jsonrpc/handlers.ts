/**
 * What a request handler is given and gives back, and how a request is sent: the shapes both the
 * peer and the inbound request use, apart from either, so that neither imports the other for them.
 */
import type { Params, RequestId } from './messages.js';

export type Result = Record<string, unknown>;

/** Tells the transport which inbound request an outgoing message belongs to, so it can pick a stream. */
export interface OutboundInfo {
  relatedRequestId?: RequestId;
}

export interface ProgressUpdate {
  progress: number;
  total?: number;
  message?: string;
}

export interface RequestOptions {
  timeoutMs?: number;
  signal?: AbortSignal;
  relatedRequestId?: RequestId;
  onProgress?: (update: ProgressUpdate) => void;
}

export interface RequestContext<E> {
  id: RequestId;
  method: string;
  /** Aborted when the other side cancels the request or the connection closes. */
  signal: AbortSignal;
  meta: Params | undefined;
  /** What the transport attached to the message (session id, headers, query string…). */
  extra: E;
  notify(method: string, params?: Params): void;
  request(method: string, params?: Params, options?: Omit<RequestOptions, 'relatedRequestId'>): Promise<Result>;
  /** Sends notifications/progress when the request carried a progressToken; returns whether it did. */
  progress(progress: number, total?: number, message?: string): boolean;
}

interface NotificationContext<E> {
  method: string;
  extra: E;
}

export type RequestHandler<E> = (params: Params, context: RequestContext<E>) => Promise<Result | void> | Result | void;
export type NotificationHandler<E> = (params: Params, context: NotificationContext<E>) => void | Promise<void>;

/** The status page's feed (`GET /status/events`) read as the page reads it, event by event. */
import { request } from 'undici';

export interface StatusEvent {
  event: string;
  data: Record<string, unknown>;
}

export interface StatusFeed {
  /** Every event so far, in order. */
  readonly events: StatusEvent[];
  /** The first event (from the start of the stream) that `match` accepts, once it comes. */
  next(match: (event: StatusEvent) => boolean, what: string, timeoutMs?: number): Promise<StatusEvent>;
  /** Resolves when the server ends the stream. */
  readonly ended: Promise<void>;
  /** `ended`, or a failure naming `what` if the server has not ended it within `timeoutMs`. */
  endsFor(what: string, timeoutMs?: number): Promise<void>;
  close(): void;
}

/** Opens the feed at `base` (the server's origin); a refusal resolves to its HTTP status. */
export async function openStatusFeed(base: string, headers: Record<string, string> = {}): Promise<StatusFeed | { status: number; body: string }> {
  const aborter = new AbortController();
  const response = await request(new URL('/status/events', base), { headers: { accept: 'text/event-stream', ...headers }, signal: aborter.signal });
  if (response.statusCode !== 200) return { status: response.statusCode, body: await response.body.text() };
  const events: StatusEvent[] = [];
  const waiters = new Set<() => void>();
  let buffered = '';
  const ended = new Promise<void>((resolve) => {
    response.body.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      for (let end; (end = buffered.indexOf('\n\n')) >= 0; buffered = buffered.slice(end + 2)) {
        const lines = buffered.slice(0, end).split('\n');
        const event = lines.find((line) => line.startsWith('event: '))?.slice(7);
        const data = lines.find((line) => line.startsWith('data: '))?.slice(6);
        if (event && data) events.push({ event, data: JSON.parse(data) as Record<string, unknown> });
      }
      for (const waiter of [...waiters]) waiter();
    });
    response.body.on('end', resolve);
    response.body.on('error', () => resolve());
    response.body.on('close', resolve);
  });
  return {
    events,
    ended,
    endsFor: (what, timeoutMs = 30_000) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`The stream did not end: ${what}`)), timeoutMs);
        void ended.then(() => {
          clearTimeout(timer);
          resolve();
        });
      }),
    next: (match, what, timeoutMs = 30_000) =>
      new Promise((resolve, reject) => {
        const look = (): boolean => {
          const found = events.find(match);
          if (!found) return false;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(found);
          return true;
        };
        const check = (): void => void look();
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`No status event for: ${what}; got ${JSON.stringify(events).slice(0, 2000)}`));
        }, timeoutMs);
        waiters.add(check);
        look();
        void ended.then(() => {
          if (!look() && waiters.has(check)) {
            waiters.delete(check);
            clearTimeout(timer);
            reject(new Error(`The stream ended before: ${what}`));
          }
        });
      }),
    close: () => aborter.abort(),
  };
}

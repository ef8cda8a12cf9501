/**
 * LISTEN that outlives the server going away. The client re-listens once when its listening
 * connection closes and gives up if the server is not back at that instant (a restart takes
 * longer); here every channel is listened to again, try after try, until the server answers.
 * Each listener's `onListen` runs after every (re)listen, so that it re-reads what it may have
 * missed while nobody was listening: a notification is a hint, the tables are the truth.
 */
import postgres from 'postgres';

/** The pause between tries to listen again while the server is away. */
const RELISTEN_MS = 1_000;
/** How long one try waits for a server that does not answer. */
const CONNECT_TIMEOUT_S = 10;

interface Listener {
  onNotify(payload: string): void;
  onListen?: () => void;
}

export class Notifications {
  readonly #sql: postgres.Sql;
  readonly #channels = new Map<string, Set<Listener>>();
  #retry: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(url: string, applicationName = 'sextant-listen') {
    // onnotify and onclose are the client's own hooks (its listen is built on them), not in its types.
    const hooks = {
      onnotify: (channel: string, payload: string) => {
        for (const listener of this.#channels.get(channel) ?? []) listener.onNotify(payload);
      },
      onclose: () => this.#relisten(),
    };
    this.#sql = postgres(url, {
      ...(hooks as object),
      max: 1,
      idle_timeout: 0,
      max_lifetime: 0,
      connect_timeout: CONNECT_TIMEOUT_S,
      fetch_types: false,
      onnotice: () => {},
      connection: { application_name: applicationName },
    });
  }

  /**
   * Listens on `channel` from now on, through outages. `listening` settles once the server has
   * been told the first time; it rejects if the server cannot be reached now, and the tries go on
   * unless `stop` is called.
   */
  listen(channel: string, onNotify: (payload: string) => void, onListen?: () => void): { stop: () => void; listening: Promise<void> } {
    const listener: Listener = { onNotify, ...(onListen && { onListen }) };
    let listeners = this.#channels.get(channel);
    let listening: Promise<void>;
    if (listeners) {
      listeners.add(listener);
      listening = Promise.resolve().then(() => onListen?.());
    } else {
      listeners = new Set([listener]);
      this.#channels.set(channel, listeners);
      listening = this.#sql.unsafe(`listen ${quoted(channel)}`).then(
        () => onListen?.(),
        (error: unknown) => {
          this.#relisten();
          throw error;
        },
      );
    }
    const own = listeners;
    const stop = (): void => {
      own.delete(listener);
      if (own.size > 0 || this.#channels.get(channel) !== own) return;
      this.#channels.delete(channel);
      if (!this.#closed) this.#sql.unsafe(`unlisten ${quoted(channel)}`).catch(() => undefined);
    };
    return { stop, listening };
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#retry);
    await this.#sql.end({ timeout: 1 }).catch(() => undefined);
  }

  /** After the listening connection closed: every channel again, until the server answers. */
  #relisten(): void {
    if (this.#closed || this.#retry !== undefined || this.#channels.size === 0) return;
    this.#retry = setTimeout(async () => {
      try {
        for (const channel of this.#channels.keys()) await this.#sql.unsafe(`listen ${quoted(channel)}`);
      } catch {
        this.#retry = undefined;
        return this.#relisten();
      }
      this.#retry = undefined;
      for (const listeners of this.#channels.values()) for (const listener of listeners) listener.onListen?.();
    }, RELISTEN_MS);
    this.#retry.unref();
  }
}

function quoted(channel: string): string {
  return `"${channel.replace(/"/g, '""')}"`;
}

/** Listens, or rejects (and stops trying) when the server cannot be reached now; resolves with how to stop. */
export async function listenOrFail(
  notifications: Notifications,
  channel: string,
  onNotify: (payload: string) => void,
  onListen?: () => void,
): Promise<() => void> {
  const { stop, listening } = notifications.listen(channel, onNotify, onListen);
  try {
    await listening;
  } catch (error) {
    stop();
    throw error;
  }
  return stop;
}

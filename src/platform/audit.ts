/**
 * `--audit-log FILE` (or `-` for stderr): one JSON line per tool call and per refusal at the HTTP
 * gate, for the operator: when, who (the principal), which project, which tool, the outcome, how
 * long it took and how many results. Never a secret or a token: the principal is a name
 * (`token:NAME`, `user:SUB`), arguments are not written, and every string is stripped of
 * credentials. Writing never fails a call: a log that cannot be written is said once.
 */
import { createWriteStream, type WriteStream } from 'node:fs';
import { withoutCredentials } from '../util/credentials.js';
import type { Logger } from './log.js';

export interface AuditEntry {
  event: 'tool_call' | 'refusal';
  principal?: string;
  project?: string;
  tool?: string;
  /** `ok`, an error code (`project_not_found`), or a refusal (`invalid_token`, `insufficient_scope`, `missing`). */
  outcome: string;
  duration_ms?: number;
  results?: number;
  /** For a refusal: the HTTP status and route. */
  status?: number;
  route?: string;
}

export class AuditLog {
  readonly #stream: WriteStream | NodeJS.WriteStream;
  #failed = false;

  constructor(target: string, logger?: Logger) {
    this.#stream = target === '-' ? process.stderr : createWriteStream(target, { flags: 'a', mode: 0o600 });
    this.#stream.on('error', (error) => {
      if (this.#failed) return;
      this.#failed = true;
      logger?.error(`The audit log ${target} cannot be written; audit lines are lost from now on`, error);
    });
  }

  record(entry: AuditEntry): void {
    if (this.#failed) return;
    const line = { time: new Date().toISOString(), ...entry };
    this.#stream.write(`${withoutCredentials(JSON.stringify(line))}\n`);
  }

  close(): Promise<void> {
    if (this.#stream === process.stderr) return Promise.resolve();
    return new Promise((resolve) => (this.#stream as WriteStream).end(() => resolve()));
  }
}

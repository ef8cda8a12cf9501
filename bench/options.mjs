// Command-line options of the benches that take them among positional arguments.

/** Takes `--name VALUE` out of `args`, so that what is left is positional; `fallback` when absent. */
export function takeOption(args, name, fallback) {
  const at = args.indexOf(name);
  if (at < 0) return fallback;
  const [, value] = args.splice(at, 2);
  return value;
}

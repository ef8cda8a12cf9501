/**
 * The key a project is known by, wherever it is stored or compared (catalog, generations,
 * checkouts, the served names): its name regardless of case, so that `Web` and `web` are one.
 */
export function projectKey(name: string): string {
  return name.toLowerCase();
}

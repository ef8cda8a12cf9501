// Stands in for `string-width` in the bundles (scripts/bundle-options.mjs). The real module
// compiles a Unicode emoji regex and an Intl.Segmenter when it loads (~25 ms, most of a
// command's start-up), and yargs measures its whole help text before every command. Printable
// ASCII is one column a character (what the real module answers too); anything else, ANSI
// escapes included, goes to the real module, loaded on first need.
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

module.exports = function stringWidth(text, options) {
  if (typeof text === 'string' && PRINTABLE_ASCII.test(text)) return text.length;
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, which is the point of this shim
  return require('string-width').default(text, options);
};

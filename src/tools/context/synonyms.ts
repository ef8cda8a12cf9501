/**
 * Words a question and the code say differently: a question says "folder" and "delete", code
 * says `dir` and `remove`. Each group is words programmers use for one thing, and the
 * abbreviations code writes them as; a question's word also looks for the others of its groups,
 * for less than the word itself (code-context.ts). General programming vocabulary only: nothing
 * here names a library's own words.
 */
import { stem } from './lexical-rank.js';

const GROUPS = [
  'directory folder dir',
  'create make construct',
  'delete remove erase unlink',
  'begin start launch spawn',
  'stop terminate kill halt abort',
  'fetch retrieve obtain',
  'store save persist',
  'find search lookup locate',
  'check verify validate',
  'convert transform translate',
  'size length len count',
  'merge combine join concat concatenate',
  'split divide separate partition',
  'wait block sleep await pause',
  'execute run invoke',
  'copy duplicate clone',
  'error exception failure fault',
  'escape quote encode',
  'unescape unquote decode',
  'compress deflate',
  'decompress inflate',
  'hash digest checksum',
  'format render print display',
  'timeout deadline',
  'close shutdown dispose',
  'connect dial',
  'mutex lock',
  'message msg',
  'configuration config settings options',
  'argument arg param parameter',
  'environment env',
  'temporary temp tmp',
  'character char',
  'string str',
  'number num',
  'integer int',
  'buffer buf',
  'process proc',
  'initialize init setup',
  'iterate iter',
  'maximum max',
  'minimum min',
  'previous prev',
  'reverse invert',
  'trim strip',
  'replace substitute',
  'append push',
  'exists present',
];

/** Each stem's other stems, over every group it is in. */
const OTHERS = new Map<string, Set<string>>();
for (const group of GROUPS) {
  const stems = group.split(' ').map(stem);
  for (const word of stems) {
    let others = OTHERS.get(word);
    if (!others) OTHERS.set(word, (others = new Set()));
    for (const other of stems) if (other !== word) others.add(other);
  }
}

/** The other words (stemmed) a question's word (stemmed) may be written as. */
export function synonymsOf(word: string): string[] {
  return [...(OTHERS.get(word) ?? [])];
}

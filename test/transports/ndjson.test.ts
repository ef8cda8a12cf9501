import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { LineDecoder } from '../../src/transports/ndjson.js';

function collect(maxLineBytes?: number) {
  const events: Array<[string, string | number]> = [];
  const options: ConstructorParameters<typeof LineDecoder>[0] = {
    onLine: (text) => void events.push(['line', text]),
    onOversize: (bytes) => void events.push(['oversize', bytes]),
    onInvalidEncoding: (bytes) => void events.push(['encoding', bytes]),
  };
  if (maxLineBytes !== undefined) options.maxLineBytes = maxLineBytes;
  return { decoder: new LineDecoder(options), events };
}

test('splits on newlines across chunk boundaries and strips one trailing CR', () => {
  const { decoder, events } = collect();
  decoder.push(Buffer.from('{"a":1}\r\n{"b"'));
  decoder.push(Buffer.from(':2}\n\n  \n{"c":3}'));
  assert.equal(events, [
    ['line', '{"a":1}'],
    ['line', '{"b":2}'],
  ]);
  decoder.end();
  assert.equal(events.at(-1), ['line', '{"c":3}']);
});

test('a multi-byte character split between chunks survives', () => {
  const { decoder, events } = collect();
  const bytes = Buffer.from('{"s":"é€😀"}\n');
  for (let i = 0; i < bytes.length; i++) decoder.push(bytes.subarray(i, i + 1));
  assert.equal(events, [['line', '{"s":"é€😀"}']]);
});

test('a line over the limit is skipped whole and reported with its size; the next line is fine', () => {
  const { decoder, events } = collect(16);
  decoder.push(Buffer.from('0123456789'));
  decoder.push(Buffer.from('0123456789abcdef\n{"ok":1}\n'));
  assert.equal(events, [
    ['oversize', 26],
    ['line', '{"ok":1}'],
  ]);
});

test('whole lines inside one chunk take the same rules: limit, blank lines, a lone CR', () => {
  const { decoder, events } = collect(8);
  decoder.push(Buffer.from('123456789\n\r\n\n{"a":1}\r\n1234'));
  decoder.push(Buffer.from('56789\n{"b":2}\n'));
  assert.equal(events, [
    ['oversize', 9],
    ['line', '{"a":1}'],
    ['oversize', 9],
    ['line', '{"b":2}'],
  ]);
});

test('a line exactly at the limit passes', () => {
  const { decoder, events } = collect(8);
  decoder.push(Buffer.from('12345678\n'));
  assert.equal(events, [['line', '12345678']]);
});

test('invalid UTF-8 is reported, not silently replaced', () => {
  const { decoder, events } = collect();
  decoder.push(Buffer.from([0x7b, 0xff, 0xfe, 0x7d, 0x0a]));
  assert.equal(events, [['encoding', 4]]);
});

test('a U+FFFD character sent on purpose is valid UTF-8 and passes', () => {
  const { decoder, events } = collect();
  decoder.push(Buffer.from('{"s":"\uFFFD"}\n', 'utf8'));
  assert.equal(events, [['line', '{"s":"\uFFFD"}']]);
});

test.run();

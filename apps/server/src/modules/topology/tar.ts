/** A minimal ustar writer (regular files only) and its gzip, for the topology snapshot. */
import { gzipSync } from 'node:zlib';

export interface TarEntry {
  name: string;
  content: string | Buffer;
  mtime?: Date;
}

function octal(value: number, length: number): string {
  return value.toString(8).padStart(length - 1, '0') + '\0';
}

function header(name: string, size: number, mtime: Date): Buffer {
  const block = Buffer.alloc(512, 0);
  if (Buffer.byteLength(name) > 100) throw new Error(`tar entry name too long: ${name}`);
  block.write(name, 0, 100, 'utf8');
  block.write(octal(0o644, 8), 100, 8, 'ascii');
  block.write(octal(0, 8), 108, 8, 'ascii');
  block.write(octal(0, 8), 116, 8, 'ascii');
  block.write(octal(size, 12), 124, 12, 'ascii');
  block.write(octal(Math.floor(mtime.getTime() / 1000), 12), 136, 12, 'ascii');
  block.fill(' ', 148, 156);
  block.write('0', 156, 1, 'ascii');
  block.write('ustar\0', 257, 6, 'ascii');
  block.write('00', 263, 2, 'ascii');
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(sum.toString(8).padStart(6, '0') + '\0 ', 148, 8, 'ascii');
  return block;
}

export function tarGz(entries: readonly TarEntry[]): Buffer {
  const parts: Buffer[] = [];
  for (const entry of entries) {
    const content = typeof entry.content === 'string' ? Buffer.from(entry.content, 'utf8') : entry.content;
    parts.push(header(entry.name, content.length, entry.mtime ?? new Date()));
    parts.push(content);
    const padding = (512 - (content.length % 512)) % 512;
    if (padding > 0) parts.push(Buffer.alloc(padding, 0));
  }
  parts.push(Buffer.alloc(1024, 0));
  return gzipSync(Buffer.concat(parts));
}

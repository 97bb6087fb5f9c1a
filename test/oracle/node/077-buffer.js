// oracle: node10 node11 node
// The global Buffer and require('buffer'): encodings both ways (utf8,
// hex, base64 with and without padding, latin1, ascii, utf16le), alloc
// and fill, concat, byteLength, slices that share memory, comparison and
// search, fixed-width reads and writes, toJSON, how console.log shows a
// Buffer (Node 10 cuts a long one with "... >"), and argument errors.
const b = Buffer.from('héllo wörld');
console.log(b, b.length, b.toString(), b.toString('hex'), b.toString('base64'), b.toString('latin1', 0, 3));
console.log(Buffer.from('68656c6c6f', 'hex').toString(), Buffer.from('aGVsbG8=', 'base64').toString(), Buffer.from('aGVsbG8', 'base64').toString());
console.log(Buffer.alloc(4), Buffer.alloc(4, 1), Buffer.alloc(5, 'ab'), Buffer.allocUnsafe(3).length);
console.log(Buffer.concat([Buffer.from('a'), Buffer.from('bc')]), Buffer.concat([Buffer.from('abc')], 2).toString(), Buffer.concat([]).length);
console.log(Buffer.byteLength('héllo'), Buffer.byteLength('aGVsbG8=', 'base64'), Buffer.byteLength('abcd', 'hex'), Buffer.isBuffer(b), Buffer.isBuffer(new Uint8Array(1)), Buffer.isEncoding('utf8'), Buffer.isEncoding('nope'));
console.log(b instanceof Uint8Array, b.slice(0, 2), b.subarray(1, 3), b.slice(0, 2).buffer === b.buffer);
console.log(Buffer.from([1, 2, 3]).equals(Buffer.from([1, 2, 3])), Buffer.compare(Buffer.from('a'), Buffer.from('b')), b.indexOf('l'), b.includes('wör'), b.indexOf(Buffer.from('o')));
const w = Buffer.alloc(8); w.writeUInt32BE(0xdeadbeef, 0); w.writeUInt16LE(0x1234, 4); w.writeInt8(-1, 6);
console.log(w, w.readUInt32BE(0).toString(16), w.readUInt16LE(4).toString(16), w.readInt8(6), w.readUInt8(6), w.write('zz', 6), w);
console.log(JSON.stringify(Buffer.from('hi')), Buffer.from('hi').toJSON());
console.log(Buffer.from('€').toString('utf16le').length, Buffer.from('hi', 'utf16le'), Buffer.from('hi', 'ascii'), Buffer.from('hi', 'latin1'));
console.log(String(Buffer.from('xyz')), Buffer.from('abc') + '', Buffer.from(Buffer.from('copy')).toString());
const big = Buffer.alloc(60, 7); console.log(big);
try { Buffer.from(5); } catch (e) { console.log(e.name, e.code); }
try { Buffer.alloc(-1); } catch (e) { console.log(e.name, e.code); }
console.log(typeof require('buffer').Buffer, require('buffer').Buffer === Buffer, require('buffer').kMaxLength > 0);
console.log(Buffer.from('abc').fill('x'), Buffer.from('hello').copy(Buffer.alloc(3)), Buffer.poolSize);
const fs = require('fs');
fs.writeFileSync('b.bin', Buffer.from([0, 255, 16]));
const read = fs.readFileSync('b.bin');
console.log(read, Buffer.isBuffer(read), read.toString('hex'), read.readUInt16BE(1));
// SPDX-License-Identifier: MIT

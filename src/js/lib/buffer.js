// require('buffer') and the global Buffer: a Uint8Array subclass with
// Node's encodings (utf8, hex, base64, base64url, latin1/binary, ascii,
// utf16le/ucs2), from/alloc/concat/byteLength/compare and the instance
// methods scripts use. Written for phaseloop; checked against real Node
// (test/oracle/node/077-buffer.js).
'use strict';

const current = internal.mode === 'node';
const kMaxLength = 2 ** 32;

class FastBuffer extends Uint8Array {}

// new Buffer(...) / Buffer(...): deprecated (DEP0005), as from/alloc.
function Buffer(arg, encodingOrOffset, length) {
  if (typeof arg === 'number') {
    if (typeof encodingOrOffset === 'string') {
      throw internal.argTypeError('string', 'string', arg);
    }
    return Buffer.alloc(arg);
  }
  return Buffer.from(arg, encodingOrOffset, length);
}
Buffer.prototype = FastBuffer.prototype;
Object.defineProperty(FastBuffer.prototype, 'constructor', { value: Buffer, writable: true, configurable: true });
Object.setPrototypeOf(Buffer, Uint8Array);
Buffer.poolSize = 8192;

// ---- encodings -------------------------------------------------------------------

function normalizeEncoding(enc) {
  if (enc === undefined || enc === null || enc === '') return 'utf8';
  switch (String(enc).toLowerCase()) {
    case 'utf8': case 'utf-8': return 'utf8';
    case 'hex': return 'hex';
    case 'base64': return 'base64';
    case 'base64url': return current ? 'base64url' : undefined;
    case 'latin1': case 'binary': return 'latin1';
    case 'ascii': return 'ascii';
    case 'ucs2': case 'ucs-2': case 'utf16le': case 'utf-16le': return 'utf16le';
    default: return undefined;
  }
}

function unknownEncoding(enc) {
  return internal.codedError('TypeError', 'Unknown encoding: ' + enc, 'ERR_UNKNOWN_ENCODING');
}

const b64chars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const b64index = new Int16Array(128).fill(-1);
for (let i = 0; i < 64; i++) b64index[b64chars.charCodeAt(i)] = i;
b64index['-'.charCodeAt(0)] = 62;
b64index['_'.charCodeAt(0)] = 63;

function base64Bytes(str) {
  const out = [];
  let bits = 0;
  let value = 0;
  for (let i = 0; i < str.length; i++) {
    const c = str.charCodeAt(i);
    if (c === 61) break;  // '='
    const v = c < 128 ? b64index[c] : -1;
    if (v < 0) continue;
    value = (value << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push((value >> bits) & 0xff);
    }
  }
  return out;
}

function base64Text(bytes, url) {
  let s = '';
  const table = url ? b64chars.slice(0, 62) + '-_' : b64chars;
  for (let i = 0; i < bytes.length; i += 3) {
    const b0 = bytes[i];
    const b1 = i + 1 < bytes.length ? bytes[i + 1] : 0;
    const b2 = i + 2 < bytes.length ? bytes[i + 2] : 0;
    s += table[b0 >> 2] + table[((b0 & 3) << 4) | (b1 >> 4)];
    s += i + 1 < bytes.length ? table[((b1 & 15) << 2) | (b2 >> 6)] : (url ? '' : '=');
    s += i + 2 < bytes.length ? table[b2 & 63] : (url ? '' : '=');
  }
  return s;
}

// The bytes of `str` in `enc` (normalized), as a Uint8Array or array.
function encode(str, enc) {
  switch (enc) {
    case 'utf8': return internal.utf8Encode(str);
    case 'hex': {
      const out = [];
      for (let i = 0; i + 1 < str.length; i += 2) {
        const v = parseInt(str.substr(i, 2), 16);
        if (Number.isNaN(v) || !/^[0-9a-fA-F]{2}$/.test(str.substr(i, 2))) break;
        out.push(v);
      }
      return out;
    }
    case 'base64':
    case 'base64url': return base64Bytes(str);
    case 'latin1':
    case 'ascii': {
      const out = new Array(str.length);
      for (let i = 0; i < str.length; i++) out[i] = str.charCodeAt(i) & 0xff;
      return out;
    }
    case 'utf16le': {
      const out = new Array(str.length * 2);
      for (let i = 0; i < str.length; i++) {
        const c = str.charCodeAt(i);
        out[2 * i] = c & 0xff;
        out[2 * i + 1] = c >> 8;
      }
      return out;
    }
  }
  throw unknownEncoding(enc);
}

function decode(bytes, enc) {
  switch (enc) {
    case 'utf8': return internal.utf8Decode(bytes, false);
    case 'hex': {
      let s = '';
      for (let i = 0; i < bytes.length; i++) s += (bytes[i] < 16 ? '0' : '') + bytes[i].toString(16);
      return s;
    }
    case 'base64': return base64Text(bytes, false);
    case 'base64url': return base64Text(bytes, true);
    case 'latin1':
    case 'ascii': {
      const mask = enc === 'ascii' ? 0x7f : 0xff;
      let s = '';
      for (let i = 0; i < bytes.length; i += 4096) {
        const part = Array.from(bytes.subarray(i, i + 4096), (b) => b & mask);
        s += String.fromCharCode.apply(null, part);
      }
      return s;
    }
    case 'utf16le': {
      let s = '';
      for (let i = 0; i + 1 < bytes.length; i += 2) s += String.fromCharCode(bytes[i] | (bytes[i + 1] << 8));
      return s;
    }
  }
  throw unknownEncoding(enc);
}

// ---- making buffers ------------------------------------------------------------------

function fromBytes(bytes) {
  const b = new FastBuffer(bytes.length);
  b.set(bytes);
  return b;
}

function checkSize(size) {
  if (typeof size !== 'number') throw internal.argTypeError('size', 'number', size);
  if (!(size >= 0 && size <= kMaxLength)) {
    if (current) {
      throw internal.codedError('RangeError', 'The value of "size" is out of range. It must be >= 0 && <= ' +
        Number.MAX_SAFE_INTEGER + '. Received ' + internal.inspect(size), 'ERR_OUT_OF_RANGE');
    }
    throw internal.codedError('RangeError', 'The value "' + size + '" is invalid for option "size"',
      'ERR_INVALID_OPT_VALUE');
  }
}

Buffer.alloc = function alloc(size, fill, encoding) {
  checkSize(size);
  const b = new FastBuffer(size);
  if (fill !== undefined && fill !== 0 && size > 0) b.fill(fill, encoding);
  return b;
};
Buffer.allocUnsafe = function allocUnsafe(size) {
  checkSize(size);
  return new FastBuffer(size);
};
Buffer.allocUnsafeSlow = Buffer.allocUnsafe;

Buffer.from = function from(value, encodingOrOffset, length) {
  if (typeof value === 'string') {
    const enc = normalizeEncoding(encodingOrOffset);
    if (enc === undefined) throw unknownEncoding(encodingOrOffset);
    return fromBytes(encode(value, enc));
  }
  if (value instanceof ArrayBuffer || (typeof SharedArrayBuffer === 'function' && value instanceof SharedArrayBuffer)) {
    const offset = encodingOrOffset === undefined ? 0 : +encodingOrOffset || 0;
    const len = length === undefined ? value.byteLength - offset : +length || 0;
    if (offset > value.byteLength) {
      throw internal.codedError('RangeError', '"offset" is outside of buffer bounds', 'ERR_BUFFER_OUT_OF_BOUNDS');
    }
    if (offset + len > value.byteLength) {
      throw internal.codedError('RangeError', '"length" is outside of buffer bounds', 'ERR_BUFFER_OUT_OF_BOUNDS');
    }
    return new FastBuffer(value, offset, len);
  }
  if (value !== null && typeof value === 'object') {
    if (ArrayBuffer.isView(value)) return fromBytes(new Uint8Array(value.buffer, value.byteOffset, value.byteLength).slice());
    if (value.type === 'Buffer' && Array.isArray(value.data)) return fromBytes(value.data);
    if (typeof value.length === 'number' || Array.isArray(value)) {
      const b = new FastBuffer(value.length >>> 0);
      for (let i = 0; i < b.length; i++) b[i] = value[i];
      return b;
    }
    const prim = value.valueOf && value.valueOf();
    if (prim !== value && prim !== null && prim !== undefined) return Buffer.from(prim, encodingOrOffset, length);
  }
  const message = current
    ? 'The first argument must be of type string or an instance of Buffer, ArrayBuffer, or Array or an ' +
      'Array-like Object.'
    : 'The first argument must be one of type string, Buffer, ArrayBuffer, Array, or Array-like Object.';
  let received;
  if (value === null || value === undefined) received = ' Received ' + value;
  else if (current && typeof value !== 'object' && typeof value !== 'function') {
    received = ' Received type ' + typeof value + ' (' + internal.inspect(value) + ')';
  } else received = ' Received type ' + typeof value;
  throw internal.codedError('TypeError', message + received, 'ERR_INVALID_ARG_TYPE');
};

Buffer.isBuffer = function isBuffer(b) {
  return b instanceof Buffer;
};
Buffer.isEncoding = function isEncoding(enc) {
  return typeof enc === 'string' && enc.length !== 0 && normalizeEncoding(enc) !== undefined;
};
Buffer.byteLength = function byteLength(value, encoding) {
  if (typeof value !== 'string') {
    if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) return value.byteLength;
    throw internal.argTypeError('string', current ? 'string or an instance of Buffer or ArrayBuffer' :
      'string, Buffer, or ArrayBuffer', value);
  }
  const enc = normalizeEncoding(encoding) || 'utf8';
  return encode(value, enc).length;
};
Buffer.concat = function concat(list, totalLength) {
  if (!Array.isArray(list)) throw internal.argTypeError('list', current ? 'Array' : 'Array', list);
  if (totalLength === undefined) totalLength = list.reduce((n, b) => n + b.length, 0);
  const out = Buffer.alloc(totalLength);
  let pos = 0;
  for (const b of list) {
    if (!(b instanceof Uint8Array)) {
      throw internal.argTypeError('list[' + list.indexOf(b) + ']', current ? 'an instance of Buffer or Uint8Array' :
        'Buffer or Uint8Array', b);
    }
    const n = Math.min(b.length, totalLength - pos);
    if (n <= 0) break;
    out.set(n === b.length ? b : b.subarray(0, n), pos);
    pos += n;
  }
  return out;
};
Buffer.compare = function compare(a, b) {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  }
  return a.length < b.length ? -1 : a.length > b.length ? 1 : 0;
};

// ---- instance methods -----------------------------------------------------------------

const proto = FastBuffer.prototype;

proto.toString = function toString(encoding, start, end) {
  if (arguments.length === 0) return internal.utf8Decode(this, false);
  const enc = normalizeEncoding(encoding);
  if (enc === undefined) throw unknownEncoding(encoding);
  start = start === undefined || start < 0 ? 0 : Math.min(start | 0, this.length);
  end = end === undefined || end > this.length ? this.length : Math.max(end | 0, start);
  return decode(this.subarray(start, end), enc);
};
proto.toLocaleString = proto.toString;
proto.equals = function equals(other) {
  if (!(other instanceof Uint8Array)) throw internal.argTypeError('otherBuffer', current ? 'an instance of Buffer or Uint8Array' : 'Buffer or Uint8Array', other);
  return Buffer.compare(this, other) === 0;
};
proto.compare = function compare(target) {
  return Buffer.compare(this, target);
};
proto.slice = function slice(start, end) {
  return this.subarray(start, end);
};
proto.subarray = function subarray(start, end) {
  const view = Uint8Array.prototype.subarray.call(this, start, end);
  return new FastBuffer(view.buffer, view.byteOffset, view.length);
};
proto.toJSON = function toJSON() {
  return { type: 'Buffer', data: Array.from(this) };
};
proto.write = function write(string, offset, length, encoding) {
  if (typeof offset === 'string') {
    encoding = offset;
    offset = 0;
    length = this.length;
  } else if (typeof length === 'string') {
    encoding = length;
    length = this.length - (offset || 0);
  }
  offset = offset === undefined ? 0 : offset >>> 0;
  const enc = normalizeEncoding(encoding);
  if (enc === undefined) throw unknownEncoding(encoding);
  const bytes = encode(String(string), enc);
  let n = Math.min(bytes.length, this.length - offset, length === undefined ? Infinity : length);
  if (enc === 'utf8') {
    // Only whole characters.
    while (n > 0 && n < bytes.length && (bytes[n] & 0xc0) === 0x80) n--;
  }
  for (let i = 0; i < n; i++) this[offset + i] = bytes[i];
  return n;
};
proto.fill = function fill(value, offset, end, encoding) {
  if (typeof offset === 'string') {
    encoding = offset;
    offset = 0;
    end = this.length;
  }
  offset = offset === undefined ? 0 : offset;
  end = end === undefined ? this.length : end;
  if (typeof value === 'string') {
    const bytes = value.length === 1 && value.charCodeAt(0) < 128 ? [value.charCodeAt(0)]
      : Array.from(encode(value, normalizeEncoding(encoding) || 'utf8'));
    if (bytes.length === 0) return Uint8Array.prototype.fill.call(this, 0, offset, end);
    for (let i = offset, k = 0; i < end; i++, k = (k + 1) % bytes.length) this[i] = bytes[k];
    return this;
  }
  if (value instanceof Uint8Array) {
    for (let i = offset, k = 0; i < end; i++, k = (k + 1) % value.length) this[i] = value[k];
    return this;
  }
  return Uint8Array.prototype.fill.call(this, value & 255, offset, end);
};
proto.copy = function copy(target, targetStart = 0, sourceStart = 0, sourceEnd = this.length) {
  const n = Math.max(0, Math.min(sourceEnd - sourceStart, target.length - targetStart));
  target.set(this.subarray(sourceStart, sourceStart + n), targetStart);
  return n;
};
proto.indexOf = function indexOf(value, byteOffset = 0, encoding) {
  if (typeof value === 'number') return Uint8Array.prototype.indexOf.call(this, value & 255, byteOffset);
  const needle = typeof value === 'string' ? encode(value, normalizeEncoding(encoding) || 'utf8') : value;
  if (byteOffset < 0) byteOffset = Math.max(0, this.length + byteOffset);
  if (needle.length === 0) return Math.min(byteOffset, this.length);
  outer: for (let i = byteOffset; i + needle.length <= this.length; i++) {
    for (let k = 0; k < needle.length; k++) {
      if (this[i + k] !== needle[k]) continue outer;
    }
    return i;
  }
  return -1;
};
proto.includes = function includes(value, byteOffset, encoding) {
  return this.indexOf(value, byteOffset, encoding) !== -1;
};

// The fixed-width readers and writers.
function checkOffset(buf, offset, size) {
  if (offset === undefined) offset = 0;
  if (typeof offset !== 'number') throw internal.argTypeError('offset', 'number', offset);
  if (!Number.isInteger(offset) || offset < 0 || offset + size > buf.length) {
    throw internal.codedError('RangeError', 'The value of "offset" is out of range. It must be >= 0 and <= ' +
      (buf.length - size) + '. Received ' + offset, 'ERR_OUT_OF_RANGE');
  }
  return offset;
}
const views = [
  ['UInt8', 1, 'getUint8', 'setUint8'], ['Int8', 1, 'getInt8', 'setInt8'],
  ['UInt16LE', 2, 'getUint16', 'setUint16', true], ['UInt16BE', 2, 'getUint16', 'setUint16', false],
  ['Int16LE', 2, 'getInt16', 'setInt16', true], ['Int16BE', 2, 'getInt16', 'setInt16', false],
  ['UInt32LE', 4, 'getUint32', 'setUint32', true], ['UInt32BE', 4, 'getUint32', 'setUint32', false],
  ['Int32LE', 4, 'getInt32', 'setInt32', true], ['Int32BE', 4, 'getInt32', 'setInt32', false],
  ['FloatLE', 4, 'getFloat32', 'setFloat32', true], ['FloatBE', 4, 'getFloat32', 'setFloat32', false],
  ['DoubleLE', 8, 'getFloat64', 'setFloat64', true], ['DoubleBE', 8, 'getFloat64', 'setFloat64', false],
];
for (const [name, size, get, set, little] of views) {
  const read = function (offset) {
    offset = checkOffset(this, offset, size);
    return new DataView(this.buffer, this.byteOffset, this.length)[get](offset, little);
  };
  const write = function (value, offset) {
    offset = checkOffset(this, offset, size);
    new DataView(this.buffer, this.byteOffset, this.length)[set](offset, +value, little);
    return offset + size;
  };
  proto['read' + name] = read;
  proto['write' + name] = write;
  if (name.startsWith('UInt') && current) {
    proto['read' + name.replace('UInt', 'Uint')] = read;
    proto['write' + name.replace('UInt', 'Uint')] = write;
  }
}

internal.bufferPrototype = proto;

module.exports = {
  Buffer,
  SlowBuffer: Buffer,
  kMaxLength,
  constants: { MAX_LENGTH: kMaxLength, MAX_STRING_LENGTH: 2 ** 29 - 24 },
  INSPECT_MAX_BYTES: 50,
};
// SPDX-License-Identifier: MIT

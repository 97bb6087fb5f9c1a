// V8's wording of the errors SpiderMonkey makes (docs/node-modes.md, "Error
// messages"). Not a module: src/js/v8_wording.cpp evaluates this file in a
// compartment of its own, where it is a function (global, mode, watch). With `watch`, a Debugger watches the script's global: when an
// exception leaves a frame of the script, the hook looks at the thrown
// value once, and an error the engine made (Debugger.Object's
// errorMessageName names the message it used) gets the message V8 gives in
// that case, as the mode's V8 words it -- Node 10's V8 6.8 and Node 11's 7.0
// ("legacy"), Node 20's 11.3 or Chromium's. Errors the script made itself
// are never touched. Without `watch` (a script that cannot see an error's
// message: v8_wording.cpp), only the errors the runner reports are
// reworded, when it reports them (rewordReported).
//
// What SpiderMonkey's message does not say (is a property read or set?
// which method was called?) comes from where the error happened, its
// "site": the frame's current instruction (does it store? Debugger.Script's
// effectful offsets) and the source text there, or only the text for a
// reported error. A case the rules cannot tell keeps SpiderMonkey's
// message.
(function install(global, mode, watch) {
  'use strict';
  const legacy = mode === 'node10' || mode === 'node11';
  const browser = mode === 'browser';

  // ---- where the error happened ----------------------------------------------------
  //
  // A site has at() (the source line cut at the error: `after` starts at
  // the instruction -- a property access's object, a method call's method
  // name, a spread's "..."), assigns() (a property store, not a read),
  // variable(name) (a value the code there can see: a primitive, a
  // Debugger.Object, or undefined if it cannot tell) and thisValue().

  const effectfulOffsets = new WeakMap();  // Debugger.Script -> Set of offsets
  const sourceLines = new WeakMap();       // Debugger.Source -> its lines

  // Where `error` (a Debugger.Object) happened, in the frame it is leaving:
  // its own line and column (from 1; the frame's current instruction, or
  // the call that raised it), in the frame's source.
  function frameSite(frame, error) {
    let cut;
    const at = () => {
      if (cut === undefined) {
        const source = frame.script.source;
        let lines = sourceLines.get(source);
        if (lines === undefined) {
          const text = source.text;
          lines = typeof text === 'string' ? text.split('\n') : [];
          sourceLines.set(source, lines);
        }
        // SpiderMonkey 128 keeps the header of a function compiled from a
        // body (the main module's) as the text's first line, line 0; 102's
        // text is the body alone, from line 1.
        const header = /^function\s*\(exports, require, module, __filename, __dirname\)\s*\{$/.test(lines[0] || '');
        const line = lines[error.errorLineNumber - (header ? 0 : 1)] || '';
        const column = error.errorColumnNumber - 1;
        cut = {before: line.slice(0, column), after: line.slice(column)};
      }
      return cut;
    };
    return {
      at,
      assigns() {
        const script = frame.script;
        if (typeof script.getEffectfulOffsets !== 'function') return storesAt(at().after);
        let offsets = effectfulOffsets.get(script);
        if (offsets === undefined) {
          offsets = new Set(script.getEffectfulOffsets());
          effectfulOffsets.set(script, offsets);
        }
        return offsets.has(frame.offset);
      },
      variable(name) {
        const env = frame.environment;
        const scope = env && env.find(name);
        if (!scope) return undefined;
        const v = scope.getVariable(name);
        return typeof v !== 'object' || v instanceof Debugger.Object ? v : undefined;
      },
      thisValue() {
        return frame.this;
      },
    };
  }

  // Whether the source from a property access on is a store to it: the
  // access followed by a plain "=" (a compound assignment reads first).
  function storesAt(after) {
    return /^[^;=]*?(\.\s*[A-Za-z_$][\w$]*|\])\s*=(?![=>])/.test(after);
  }

  // A site known by its source line and column (from 1) only.
  function textSite(line, column) {
    const cut = {before: line.slice(0, column - 1), after: line.slice(column - 1)};
    return {
      at: () => cut,
      assigns: () => storesAt(cut.after),
      variable: () => undefined,
      thisValue: () => undefined,
    };
  }

  // A data property of a Debugger.Object, own or inherited (no getter runs).
  function dataProperty(obj, name) {
    for (let o = obj, n = 0; o && n < 32; o = o.proto, n++) {
      const d = o.getOwnPropertyDescriptor(name);
      if (d) return 'value' in d ? d.value : undefined;
    }
    return undefined;
  }

  // The value of a path the source names (this, x, x.y.z), as far as it can
  // be found without running script: undefined if it cannot.
  function valueOf(site, path) {
    const parts = path.split('.').map((p) => p.trim());
    let v = parts[0] === 'this' ? site.thisValue() : site.variable(parts[0]);
    for (let i = 1; i < parts.length && v !== undefined; i++) {
      v = v instanceof Debugger.Object ? dataProperty(v, parts[i]) : undefined;
    }
    return v;
  }

  // The number an argument's source text stands for: a literal, or a
  // variable holding a number.
  function numberOf(site, text) {
    if (/^[-+]?(\d+(\.\d*)?([eE][-+]?\d+)?|Infinity)$/.test(text)) return Number(text);
    if (/^[A-Za-z_$][\w$]*$/.test(text)) {
      const v = site.variable(text);
      if (typeof v === 'number') return v;
    }
    return undefined;
  }

  // An object as V8 names it in a message: #<Foo> by its constructor,
  // [object Array] for an array; undefined for a function.
  function objectName(obj) {
    if (obj.callable) return undefined;
    if (obj.class === 'Array') return '[object Array]';
    const ctor = dataProperty(obj, 'constructor');
    const name = ctor instanceof Debugger.Object && ctor.callable ? ctor.name : undefined;
    return typeof name === 'string' && name !== '' ? `#<${name}>` : '[object Object]';
  }

  // ---- SpiderMonkey's printed values ---------------------------------------------------

  // A string SpiderMonkey printed in double quotes, from s[i] (the opening
  // quote): [its text, the index after the closing quote], or undefined.
  function quoted(s, i) {
    if (s[i] !== '"') return undefined;
    let out = '';
    for (let j = i + 1; j < s.length; j++) {
      const c = s[j];
      if (c === '"') return [out, j + 1];
      if (c !== '\\') {
        out += c;
        continue;
      }
      const e = s[++j];
      const simple = {n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', v: '\v', 0: '\0'};
      if (e in simple) {
        out += simple[e];
      } else if (e === 'x' || e === 'u') {
        const n = e === 'x' ? 2 : 4;
        const hex = s.slice(j + 1, j + 1 + n);
        if (!/^[0-9A-Fa-f]+$/.test(hex) || hex.length !== n) return undefined;
        out += String.fromCharCode(parseInt(hex, 16));
        j += n;
      } else {
        out += e;
      }
    }
    return undefined;
  }

  // A property key as SpiderMonkey printed it at s[i] ("x", 0,
  // Symbol.iterator, Symbol("d")): [the key as V8 prints it (x, 0,
  // Symbol(Symbol.iterator), Symbol(d)), the index after it], or undefined.
  function key(s, i) {
    const q = quoted(s, i);
    if (q) return q;
    let m = /^-?\d+/.exec(s.slice(i));
    if (m) return [m[0], i + m[0].length];
    m = /^Symbol\.[A-Za-z]+/.exec(s.slice(i));
    if (m && !s.startsWith('Symbol.for(', i)) return ['Symbol(' + m[0] + ')', i + m[0].length];
    m = /^Symbol(\.for)?\(/.exec(s.slice(i));
    if (m) {
      const start = i + m[0].length;
      if (s[start] === ')') return ['Symbol()', start + 1];
      const d = quoted(s, start);
      if (d && s[d[1]] === ')') return ['Symbol(' + d[0] + ')', d[1] + 1];
    }
    return undefined;
  }

  // A property key as the source writes it, evaluated where that is safe:
  // a string or number literal, Symbol('d'), a well-known symbol, or a
  // variable the frame can see that holds a primitive. [key as V8 prints
  // it] or undefined.
  function sourceKey(text, site) {
    const t = text.trim();
    let m;
    if ((m = /^(['"])((?:(?!\1)[^\\])*)\1$/.exec(t))) return [m[2]];
    if (/^-?\d+$/.test(t)) return [String(Number(t))];
    if ((m = /^Symbol\.([A-Za-z]+)$/.exec(t))) return [`Symbol(Symbol.${m[1]})`];
    if ((m = /^Symbol\(\s*(?:(['"])((?:(?!\1)[^\\])*)\1)?\s*\)$/.exec(t))) return [`Symbol(${m[2] || ''})`];
    if (/^[A-Za-z_$][\w$]*$/.test(t)) {
      const v = site.variable(t);
      if (typeof v === 'string' || typeof v === 'number' || typeof v === 'symbol') return [String(v)];
    }
    return undefined;
  }

  // Where SpiderMonkey says only "EXPR is null" (128 does, for a property
  // of null or undefined): the key the source accesses on EXPR at the
  // site, [key] or undefined. The frame is at EXPR (o.a.b: "o.a", then .b),
  // at a keyword before it (return o.x), at the method of a call in it
  // (m.get(...): at get), or inside the brackets of EXPR[KEY].
  function accessedKey(expr, site) {
    const {before, after} = site.at();
    const text = before + after;
    const at = before.length;
    // SpiderMonkey writes a call's arguments as "(...)".
    const esc = expr.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\s+/g, '\\s*')
                    .replace(/\\\(\\\.\\\.\\\.\\\)/g, '\\([^()]*(?:\\([^()]*\\)[^()]*)*\\)');
    const re = new RegExp(`(?<![\\w$.])${esc}\\s*(?:\\.\\s*([A-Za-z_$][\\w$]*)|\\[)`, 'g');
    for (let m; (m = re.exec(text)) !== null;) {
      const end = m.index + m[0].length;
      if (m.index > at && !/^(?:(?:return|throw|await|typeof|void|yield|delete)\s+)?$/.test(text.slice(at, m.index))) {
        break;
      }
      if (end < at) continue;
      if (m[1] !== undefined) return [m[1]];
      const inner = bracketed(text, end);
      return inner === undefined ? undefined : sourceKey(inner, site);
    }
    return undefined;
  }

  // The text of s from i up to the "]" that closes the "[" before i.
  function bracketed(s, i) {
    let depth = 1;
    for (let j = i; j < s.length; j++) {
      const c = s[j];
      if (c === "'" || c === '"' || c === '`') {
        for (j++; j < s.length && s[j] !== c; j++) if (s[j] === '\\') j++;
      } else if (c === '[' || c === '(' || c === '{') {
        depth++;
      } else if (c === ']' || c === ')' || c === '}') {
        if (--depth === 0) return c === ']' ? s.slice(i, j) : undefined;
      }
    }
    return undefined;
  }

  // Iterating null or undefined where SpiderMonkey 128 says only that it
  // has no properties or is null: an array pattern's value, a spread, the
  // value of a for-of.
  function iterates(site) {
    const {before, after} = site.at();
    return /\]\s*=\s*$/.test(before) || /^\.\.\./.test(after) || /\bof\s*\(?\s*$/.test(before);
  }

  // ---- the rules -------------------------------------------------------------------

  // Reading or writing a property of null or undefined.
  function propertyOfNothing(k, value, expr, site) {
    if (k === 'Symbol(Symbol.iterator)') return notIterable(value, expr, site);
    const {after} = site.at();
    if (/^delete\b/.test(after)) return 'Cannot convert undefined or null to object';
    const set = site.assigns();
    if (legacy) return `Cannot ${set ? 'set' : 'read'} property '${k}' of ${value}`;
    return set ? `Cannot set properties of ${value} (setting '${k}')`
               : `Cannot read properties of ${value} (reading '${k}')`;
  }

  // Iterating null or undefined (SpiderMonkey: it has no Symbol.iterator).
  function notIterable(value, expr, site) {
    const {before, after} = site.at();
    const object = value === 'null' ? 'object null' : 'undefined';
    // x[Symbol.iterator] itself.
    if (/^[\w$.]*\s*\[\s*Symbol\.iterator\s*\]/.test(after)) {
      return legacy ? `Cannot read property 'Symbol(Symbol.iterator)' of ${value === 'null' ? 'object' : 'undefined'}`
                    : `${object} is not iterable (cannot read property Symbol(Symbol.iterator))`;
    }
    // Array.from(x).
    if (/^from\s*\(/.test(after) && /\bArray\s*\.\s*$/.test(before)) {
      return legacy ? 'Cannot convert undefined or null to object'
                    : `${object} is not iterable (cannot read property Symbol(Symbol.iterator))`;
    }
    // f(...x): a spread in a call's arguments.
    const spread = /^\.\.\.\s*([^,)]*?)\s*[,)]/.exec(after);
    if (spread && openedBy(before) === '(') {
      if (!legacy) return `${spread[1]} is not iterable (cannot read property ${value})`;
      const callee = /([A-Za-z_$][\w$]*(?:\s*\.\s*[A-Za-z_$][\w$]*)*)\s*\([^()]*$/.exec(before);
      return callee ? `Cannot read property 'Symbol(Symbol.iterator)' of ${callee[1]}` : undefined;
    }
    return `${expr === undefined ? value : expr} is not iterable`;
  }

  // Object.create(p) given a p that is neither an object nor null.
  function prototypeNotObject(msg) {
    const m = /^(-?[\d.]+|true|false|undefined|"[^]*") is not an object or null$/.exec(msg);
    const q = m && quoted(m[1], 0);
    return m ? `Object prototype may only be an Object or null: ${q ? q[0] : m[1]}` : undefined;
  }

  // Object.defineProperty(x, ...) and its kin, given no object.
  function objectCalledOn(site) {
    const {before, after} = site.at();
    const m = /^([A-Za-z]+)\s*\(/.exec(after);
    return m && /\bObject\s*\.\s*$/.test(before) ? `Object.${m[1]} called on non-object` : undefined;
  }

  // The bracket that opens the innermost group `before` leaves open.
  function openedBy(before) {
    let depth = 0;
    for (let i = before.length - 1; i >= 0; i--) {
      const c = before[i];
      if (c === ')' || c === ']' || c === '}') {
        depth++;
      } else if (c === '(' || c === '[' || c === '{') {
        if (depth === 0) return c;
        depth--;
      }
    }
    return undefined;
  }

  // Destructuring null or undefined: {a} = x, or a parameter {a}.
  function destructure(value, param, site) {
    const {before, after} = site.at();
    let pattern, rhs, named;
    let m;
    if (param) {
      // V8 names the argument by its value.
      m = /^\(\s*\{([^{}]*)\}/.exec(after);
      if (!m) return undefined;
      pattern = m[1];
      named = value === 'null' ? 'object null' : 'undefined';
    } else if ((m = /\{([^{}]*)\}\s*=\s*$/.exec(before))) {
      // const {a} = x: the frame is at x.
      pattern = m[1];
      rhs = /^\s*([^;,)\n]*?)\s*(;|,|\)|$)/.exec(after)[1];
    } else if ((m = /^\{([^{}]*)\}\s*=\s*([^;,)\n]*?)\s*(;|,|\)|$)/.exec(after))) {
      // ({a} = x): the frame is at the pattern.
      pattern = m[1];
      rhs = m[2];
    } else {
      return undefined;
    }
    // V8 names the value as its source says: a name, a path or a literal.
    if (!param && /^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)*$/.test(rhs)) named = rhs;
    const first = pattern.split(',')[0].trim();
    if (first === '' || first.startsWith('...')) {
      if (legacy) return "Cannot destructure 'undefined' or 'null'.";
      return named === undefined ? undefined : `Cannot destructure '${named}' as it is ${value}.`;
    }
    const name = /^([A-Za-z_$][\w$]*)\s*(:|=|$)/.exec(first);
    if (!name) return undefined;
    if (legacy) return `Cannot destructure property \`${name[1]}\` of 'undefined' or 'null'.`;
    // A default value: V8 reads the property first.
    if (name[2] === '=') return `Cannot read properties of ${value} (reading '${name[1]}')`;
    return named === undefined ? undefined : `Cannot destructure property '${name[1]}' of '${named}' as it is ${value}.`;
  }

  // The object a failed store went to, as V8 names it: the receiver of
  // `x.y = v` or `x[k] = v` when the source names it by a path, the global
  // object for `name = v`. Others are taken for a plain object.
  function receiver(site) {
    const {after} = site.at();
    const m = /^((?:this|[A-Za-z_$][\w$]*)(?:\s*\.\s*[A-Za-z_$][\w$]*)*)\s*(?:\.\s*[A-Za-z_$][\w$]*|\[[^\]]*\])\s*=(?!=)/.exec(after);
    if (m) {
      const v = valueOf(site, m[1]);
      if (v instanceof Debugger.Object) {
        const name = objectName(v);
        return name === undefined ? undefined : `object '${name}'`;
      }
      if (typeof v === 'string') return `string '${v}'`;
      return v === undefined ? "object '#<Object>'" : undefined;
    }
    if (/^[A-Za-z_$][\w$]*\s*=(?!=)/.test(after)) return browser ? "object '#<Window>'" : "object '#<Object>'";
    return "object '#<Object>'";
  }

  // ---- JSON.parse ------------------------------------------------------------------
  //
  // SpiderMonkey says why the text is not JSON and where (line and column);
  // V8 says it at a position, and Node 10 and 11 only name what they found
  // there. v8_wording.cpp's JSON.parse passes the text along.

  // Node 20's and Chromium's phrase for each of SpiderMonkey's reasons.
  const jsonReasons = new Map([
    ["end of data while reading object contents", "Expected property name or '}'"],
    ["expected property name or '}'", "Expected property name or '}'"],
    ['end of data when property name was expected', 'Expected double-quoted property name'],
    ['expected double-quoted property name', 'Expected double-quoted property name'],
    ["end of data after property name when ':' was expected", "Expected ':' after property name"],
    ["expected ':' after property name in object", "Expected ':' after property name"],
    ['end of data after property value in object', "Expected ',' or '}' after property value"],
    ["expected ',' or '}' after property value in object", "Expected ',' or '}' after property value"],
    ["end of data when ',' or ']' was expected", "Expected ',' or ']' after array element"],
    ["expected ',' or ']' after array element", "Expected ',' or ']' after array element"],
    ['unexpected non-whitespace character after JSON data', 'Unexpected non-whitespace character after JSON'],
    ['unterminated string', 'Unterminated string'],
    ['bad control character in string literal', 'Bad control character in string literal'],
    ['bad escaped character', 'Bad escaped character'],
    ['bad Unicode escape', 'Bad Unicode escape'],
    ['no number after minus sign', 'No number after minus sign'],
    ['unexpected non-digit', 'No number after minus sign'],
    ['missing digits after decimal point', 'Unterminated fractional number'],
    ['unterminated fractional number', 'Unterminated fractional number'],
    ['missing digits after exponent indicator', 'Exponent part is missing a number'],
  ]);

  // The inputs V8 quotes whole: what JSON.parse is given most often by
  // mistake.
  const jsonMistakes = new Set(['undefined', 'NaN', 'Infinity', '[object Object]']);

  function jsonError(message, text) {
    const m = /^JSON\.parse: (.*) at line (\d+) column (\d+) of the JSON data$/.exec(message);
    if (!m) return undefined;
    const reason = m[1];
    const line = Number(m[2]);
    const column = Number(m[3]);
    let start = 0;
    for (let l = 1; l < line; l++) {
      start = text.indexOf('\n', start) + 1;
      if (start === 0) return undefined;
    }
    let p = start + column - 1;
    // SpiderMonkey places a misspelt true, false or null at its start, V8
    // at its first wrong character.
    if (reason === 'unexpected keyword') {
      const word = {t: 'true', f: 'false', n: 'null'}[text[p]];
      if (word === undefined) return undefined;
      let i = 0;
      while (i < word.length && text[p + i] === word[i]) i++;
      p += i;
    }
    const at = (s) => (browser ? `${s} (line ${line} column ${column})` : s);
    const c = text[p];
    const digit = c >= '0' && c <= '9';
    // What was found, as Node 10 and 11 report every error.
    const found = () => {
      if (p >= text.length) return 'Unexpected end of JSON input';
      if (c === '"') return at(`Unexpected string in JSON at position ${p}`);
      if (digit || c === '-') return at(`Unexpected number in JSON at position ${p}`);
      if (legacy) return `Unexpected token ${c} in JSON at position ${p}`;
      if (jsonMistakes.has(text)) return `"${text}" is not valid JSON`;
      // The text, or ten characters either side.
      const n = text.length;
      const shown = n <= 20 ? `"${text}"`
                  : p < 10 ? `"${text.slice(0, p + 10)}"...`
                  : p < n - 10 ? `..."${text.slice(p - 10, p + 10)}"...`
                  : `..."${text.slice(p - 10)}"`;
      return `Unexpected token '${c}', ${shown} is not valid JSON`;
    };
    if (legacy || reason === 'unexpected end of data' || reason === 'unexpected keyword' ||
        reason === 'unexpected character') {
      return found();
    }
    // A digit after a leading zero ends the number there.
    if (digit && /(^|[^\d.eE+-])-?0$/.test(text.slice(0, p))) return found();
    // A string cut short inside an escape.
    if (reason === 'unterminated string' && /(^|[^\\])(\\\\)*\\$/.test(text)) return 'Unexpected end of JSON input';
    const phrase = jsonReasons.get(reason);
    if (phrase === undefined) return undefined;
    // Node 20 checks the colon after the first property name only.
    if (mode === 'node' && phrase === "Expected ':' after property name" && !firstName(text, p)) return found();
    return at(`${phrase}${phrase.endsWith(' JSON') ? '' : ' in JSON'} at position ${p}`);
  }

  // Whether the property name before text[p] is its object's first.
  function firstName(text, p) {
    let i = p - 1;
    while (i >= 0 && /\s/.test(text[i])) i--;
    if (text[i] !== '"') return true;
    // Back to the name's opening quote (one no backslash escapes).
    for (i--; i >= 0; i--) {
      if (text[i] !== '"') continue;
      let b = 0;
      while (text[i - 1 - b] === '\\') b++;
      if (b % 2 === 0) break;
    }
    i--;
    while (i >= 0 && /\s/.test(text[i])) i--;
    return text[i] !== ',';
  }

  // String.prototype.repeat's count as V8 words it.
  function repeatCount(site, tooLarge) {
    const {after} = site.at();
    const m = /^repeat\s*\(\s*([^()]*?)\s*\)/.exec(after);
    if (!m) return tooLarge ? 'Invalid string length' : undefined;
    const n = numberOf(site, m[1]);
    // Too large: a finite count makes too long a string (a count whose
    // source does not say Infinity is taken for one).
    if (tooLarge && n !== Infinity && !(n === undefined && /Infinity/.test(m[1]))) return 'Invalid string length';
    if (legacy) return 'Invalid count value';
    return n === undefined ? undefined : `Invalid count value: ${n}`;
  }

  // One function per SpiderMonkey message: (message, site) -> V8's message,
  // or undefined to keep SpiderMonkey's.
  const rules = new Map([
    ['JSMSG_PROPERTY_FAIL', (msg, site) => {
      const p = "can't access property ";
      const k = msg.startsWith(p) && key(msg, p.length);
      const m = k && /^ of (null|undefined)$/.exec(msg.slice(k[1]));
      return m ? propertyOfNothing(k[0], m[1], undefined, site) : undefined;
    }],
    ['JSMSG_PROPERTY_FAIL_EXPR', (msg, site) => {
      const p = "can't access property ";
      const k = msg.startsWith(p) && key(msg, p.length);
      const m = k && /^, ([^]*) is (null|undefined)$/.exec(msg.slice(k[1]));
      return m ? propertyOfNothing(k[0], m[2], m[1], site) : undefined;
    }],
    ['JSMSG_NO_PROPERTIES', (msg, site) => {
      const m = /^(null|undefined) has no properties$/.exec(msg);
      if (!m) return undefined;
      const k = accessedKey(m[1], site);
      if (k) return propertyOfNothing(k[0], m[1], m[1], site);
      if (iterates(site)) return notIterable(m[1], undefined, site);
      return destructure(m[1], false, site);
    }],
    ['JSMSG_UNEXPECTED_TYPE', (msg, site) => {
      const m = /^([^]*) is (null|undefined)$/.exec(msg);
      if (m && m[1] !== '(destructured parameter)') {
        const k = accessedKey(m[1], site);
        if (k) return propertyOfNothing(k[0], m[2], m[1], site);
        if (iterates(site)) return notIterable(m[2], m[1], site);
      }
      if (m) return destructure(m[2], m[1] === '(destructured parameter)', site);
      if (/ is not an object$/.test(msg)) return objectCalledOn(site);
      return prototypeNotObject(msg);
    }],
    ['JSMSG_NOT_OBJORNULL', (msg) => prototypeNotObject(msg)],
    ['JSMSG_NOT_ITERABLE', (msg, site) => {
      const m = /^([^]*) is not iterable$/.exec(msg);
      if (!m) return undefined;
      // The collections' constructors iterate their argument themselves,
      // and V8 says what kind of value it was.
      if (/^new\s+(Weak)?(Map|Set)\s*\(/.test(site.at().after)) {
        const v = m[1];
        if (/^\(\{.*\}\)$/.test(v)) {
          return legacy ? '#<Object> is not iterable' : 'object is not iterable (cannot read property Symbol(Symbol.iterator))';
        }
        const type = /^-?[\d.]+(e[-+]?\d+)?$|^-?Infinity$|^NaN$/.test(v) ? 'number' : /^(true|false)$/.test(v) ? 'boolean' : undefined;
        if (type === undefined) return undefined;
        return legacy ? msg : `${type} ${v} is not iterable (cannot read property Symbol(Symbol.iterator))`;
      }
      // V8 prints an empty object literal as written.
      return m[1] === '({})' ? '{} is not iterable' : undefined;
    }],
    ['JSMSG_BAD_CONST_ASSIGN', () => 'Assignment to constant variable.'],
    ['JSMSG_UNDECLARED_VAR', (msg) => {
      const m = /^assignment to undeclared variable (.*)$/.exec(msg);
      return m ? `${m[1]} is not defined` : undefined;
    }],
    ['JSMSG_UNINITIALIZED_LEXICAL', (msg) => {
      const m = /^can't access lexical declaration '(.*)' before initialization$/.exec(msg);
      if (!m) return undefined;
      return legacy ? `${m[1]} is not defined` : `Cannot access '${m[1]}' before initialization`;
    }],
    ['JSMSG_UNINITIALIZED_THIS',
     () => "Must call super constructor in derived class before accessing 'this' or returning from derived constructor"],
    ['JSMSG_REINIT_THIS', () => 'Super constructor may only be called once'],
    ['JSMSG_BAD_DERIVED_RETURN', () => 'Derived constructors may only return object or undefined'],
    ['JSMSG_CANT_CALL_CLASS_CONSTRUCTOR', (msg, site) => {
      const {before, after} = site.at();
      let m = /^([A-Za-z_$][\w$]*)\s*\(/.exec(after);
      if (m && /^(call|apply)$/.test(m[1])) m = /([A-Za-z_$][\w$]*)\s*\.\s*$/.exec(before);
      return m ? `Class constructor ${m[1]} cannot be invoked without 'new'` : undefined;
    }],
    ['JSMSG_EMPTY_ARRAY_REDUCE', () => 'Reduce of empty array with no initial value'],
    ['JSMSG_MISSING_FUN_ARG', () => 'undefined is not a function'],
    ['JSMSG_BAD_ARRAY_LENGTH', (msg, site) => {
      const {after} = site.at();
      const typed = /^new\s+(?:Int8|Uint8|Uint8Clamped|Int16|Uint16|Int32|Uint32|Float32|Float64|BigInt64|BigUint64)Array\s*\(\s*([^()]*?)\s*\)/.exec(after);
      if (typed) {
        const n = numberOf(site, typed[1]);
        return n === undefined ? undefined : `Invalid typed array length: ${n}`;
      }
      if (browser && site.assigns()) return "Failed to set the 'length' property on 'Array': Invalid array length";
      return 'Invalid array length';
    }],
    ['JSMSG_BAD_INDEX', (msg, site) => (/^new\s+ArrayBuffer\s*\(/.test(site.at().after) ? 'Invalid array buffer length' : undefined)],
    ['JSMSG_NEGATIVE_REPETITION_COUNT', (msg, site) => repeatCount(site, false)],
    ['JSMSG_RESULTING_STRING_TOO_LARGE', (msg, site) => repeatCount(site, true)],
    ['JSMSG_PRECISION_RANGE', (msg, site) => {
      const m = /^(toFixed|toPrecision|toExponential)\s*\(/.exec(site.at().after);
      if (!m) return undefined;
      return m[1] === 'toFixed' ? 'toFixed() digits argument must be between 0 and 100'
                                : `${m[1]}() argument must be between ${m[1] === 'toPrecision' ? 1 : 0} and 100`;
    }],
    ['JSMSG_BAD_RADIX', () => 'toString() radix argument must be between 2 and 36'],
    ['JSMSG_BAD_URI', () => 'URI malformed'],
    ['JSMSG_INVALID_DATE', () => 'Invalid time value'],
    ['JSMSG_SYMBOL_TO_STRING', () => 'Cannot convert a Symbol value to a string'],
    ['JSMSG_SYMBOL_TO_NUMBER', () => 'Cannot convert a Symbol value to a number'],
    ['JSMSG_BIGINT_TO_NUMBER', (msg, site) => {
      // A unary plus or a Math function converts; an operator mixes.
      const {before, after} = site.at();
      const converts = /^\+(?![+=])/.test(after) || (/^[A-Za-z_$][\w$]*\s*\(/.test(after) && /\bMath\s*\.\s*$/.test(before));
      return converts ? 'Cannot convert a BigInt value to a number' : 'Cannot mix BigInt and other types, use explicit conversions';
    }],
    ['JSMSG_BIGINT_DIVISION_BY_ZERO', () => 'Division by zero'],
    ['JSMSG_BIGINT_NEGATIVE_EXPONENT', () => (mode === 'node' ? 'undefined must be positive' : 'Exponent must be positive')],
    ['JSMSG_NONINTEGER_NUMBER_TO_BIGINT', (msg) => {
      const m = /^(.*) can't be converted to BigInt because it isn't an integer$/.exec(msg);
      return m ? `The number ${m[1]} cannot be converted to a BigInt because it is not an integer` : undefined;
    }],
    ['JSMSG_CANT_CONVERT_TO', (msg, site) => {
      const m = /^can't convert (.*) to (.*)$/.exec(msg);
      if (!m) return undefined;
      if (m[2] === 'object' && (m[1] === 'null' || m[1] === 'undefined')) {
        const {before, after} = site.at();
        const method = /^(call|apply)\s*\(/.test(after) && /\bArray\s*\.\s*prototype\s*\.\s*([A-Za-z]+)\s*\.\s*$/.exec(before);
        return method ? `Array.prototype.${method[1]} called on null or undefined` : 'Cannot convert undefined or null to object';
      }
      if (m[2] === 'primitive type') return 'Cannot convert object to primitive value';
      if (m[2] === 'BigInt') return `Cannot convert ${m[1]} to a BigInt`;
      return undefined;
    }],
    ['JSMSG_IN_STRING', (msg) => {
      const p = "cannot use 'in' operator to search for ";
      const k = msg.startsWith(p) && key(msg, p.length);
      const s = k && msg.startsWith(' in ', k[1]) && quoted(msg, k[1] + 4);
      return s && s[1] === msg.length ? `Cannot use 'in' operator to search for '${k[0]}' in ${s[0]}` : undefined;
    }],
    ['JSMSG_BAD_INSTANCEOF_RHS', () => "Right-hand side of 'instanceof' is not an object"],
    ['JSMSG_SET_NON_OBJECT_RECEIVER', (msg) => {
      const p = "can't assign to property ";
      const k = msg.startsWith(p) && key(msg, p.length);
      if (!k || !msg.startsWith(' on ', k[1]) || !msg.endsWith(': not an object')) return undefined;
      const v = msg.slice(k[1] + 4, msg.length - ': not an object'.length);
      const s = quoted(v, 0);
      const shown = s && s[1] === v.length ? `string '${s[0]}'`
                  : /^-?[\d.]+(e[-+]?\d+)?$|^-?Infinity$|^NaN$/.test(v) ? `number '${v}'`
                  : /^(true|false)$/.test(v) ? `boolean '${v}'` : undefined;
      return shown ? `Cannot create property '${k[0]}' on ${shown}` : undefined;
    }],
    ['JSMSG_CANT_DEFINE_PROP_OBJECT_NOT_EXTENSIBLE', (msg, site) => {
      const p = "can't define property ";
      const k = msg.startsWith(p) && key(msg, p.length);
      if (!k || !msg.startsWith(': ', k[1])) return undefined;
      const define = /^define(Property|Properties)\s*\(/.test(site.at().after);
      return `Cannot ${define ? 'define' : 'add'} property ${k[0]}, object is not extensible`;
    }],
    ['JSMSG_CANT_REDEFINE_PROP', (msg) => {
      const p = "can't redefine non-configurable property ";
      const k = msg.startsWith(p) && key(msg, p.length);
      return k && k[1] === msg.length ? `Cannot redefine property: ${k[0]}` : undefined;
    }],
    ['JSMSG_READ_ONLY', (msg, site) => {
      const k = key(msg, 0);
      if (!k || msg.slice(k[1]) !== ' is read-only') return undefined;
      const to = receiver(site);
      return to === undefined ? undefined : `Cannot assign to read only property '${k[0]}' of ${to}`;
    }],
    ['JSMSG_GETTER_ONLY', (msg, site) => {
      const p = 'setting getter-only property ';
      const k = msg.startsWith(p) && key(msg, p.length);
      const to = k && k[1] === msg.length && receiver(site);
      return to && to.startsWith('object ') ? `Cannot set property ${k[0]} of ${to.slice(8, -1)} which has only a getter` : undefined;
    }],
    ['JSMSG_OBJECT_REQUIRED', (msg, site) => objectCalledOn(site)],
    ['JSMSG_OBJECT_REQUIRED_ARG', (msg) => {
      const m = /^`(\w+)` argument of ([\w.]+) must be an object/.exec(msg);
      if (!m) return undefined;
      if (m[2] === 'Proxy') return 'Cannot create proxy with a non-object as target or handler';
      return m[2].startsWith('Reflect.') && m[1] === 'target' ? `${m[2]} called on non-object` : undefined;
    }],
    ['JSMSG_NOT_FUNCTION', (msg, site) => {
      // new Promise(executor).
      const m = /^(-?[\d.]+|true|false|null|undefined) is not a function$/.exec(msg);
      return m && /^new\s+Promise\s*\(/.test(site.at().after) ? `Promise resolver ${m[1]} is not a function` : undefined;
    }],
    ['JSMSG_OBJECT_REQUIRED_WEAKMAP_KEY', () => 'Invalid value used as weak map key'],
    ['JSMSG_OBJECT_REQUIRED_WEAKSET_VAL', () => 'Invalid value used in weak set'],
    // (SpiderMonkey 128's names for the two.)
    ['JSMSG_WEAKMAP_KEY_MUST_BE_AN_OBJECT', () => 'Invalid value used as weak map key'],
    ['JSMSG_WEAKSET_VAL_MUST_BE_AN_OBJECT', () => 'Invalid value used in weak set'],
    ['JSMSG_OBJECT_REQUIRED_PROP_DESC', (msg) => {
      const m = /^Property descriptor must be an object, got (-?[\d.]+|true|false|null|undefined)$/.exec(msg);
      return m ? `Property description must be an object: ${m[1]}` : undefined;
    }],
    // Node 12 and later add the path that closes the circle.
    ['JSMSG_JSON_CYCLIC_VALUE', () => (legacy ? 'Converting circular structure to JSON' : undefined)],
  ]);

  // ---- rewording -------------------------------------------------------------------

  // Gives `error` (a Debugger.Object, one SpiderMonkey made with its
  // message `name`) V8's message for what happened at `site`.
  function reword(error, name, site) {
    const rule = rules.get(name);
    if (rule === undefined) return;
    const d = error.getOwnPropertyDescriptor('message');
    if (d === undefined || typeof d.value !== 'string') return;
    const text = rule(d.value, site);
    if (typeof text === 'string') {
      error.defineProperty('message', {value: text, writable: true, enumerable: false, configurable: true});
    }
  }

  const dbg = new Debugger();
  const globalRef = dbg.makeGlobalObjectReference(global);
  // A rule that fails leaves the message as it was.
  dbg.uncaughtExceptionHook = () => undefined;
  if (watch) {
    dbg.addDebuggee(global);
    // The errors already looked at: the hook runs once per frame the
    // exception leaves, and the first is where it happened.
    const seen = new WeakSet();
    dbg.onExceptionUnwind = (frame, value) => {
      if (typeof value !== 'object' || value === null) return undefined;
      const name = value.errorMessageName;
      if (name === undefined || seen.has(value)) return undefined;
      seen.add(value);
      if (frame.script !== undefined) reword(value, name, frameSite(frame, value));
      return undefined;
    };
  }

  // An error the runner is about to report (uncaught, or a rejection no
  // one handled) when no hook watched it: `line` is the source line it
  // happened on, `column` (from 1) where.
  function rewordReported(error, line, column) {
    if (watch) return;
    try {
      const e = globalRef.makeDebuggeeValue(error);
      const name = e.errorMessageName;
      if (name !== undefined) reword(e, name, textSite(line, column));
    } catch (e) {
      // SpiderMonkey's message stays.
    }
  }

  return {debugger: dbg, jsonError, rewordReported};
})
// SPDX-License-Identifier: MIT

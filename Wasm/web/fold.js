// fold.js: fold.wasm for JavaScript (a classic script: works from file:// and any server).
// The same fold as Fold's Swift library (the module is built from its sources by `make wasm`).
//
//   const fold = await FoldWasm.load(bytes);         // bytes: fold.wasm's (an ArrayBuffer)
//   const search = fold.folder("search");
//   fold.fold(search, "Crème Brûlée");                // "creme brulee"
//   fold.tokens(search, "L'Été");                     // [{start: 0, end: 1, folded: "l"}, ...]
//   fold.fingerprint(search);                         // "fold4-search-u15.0-cldr42-d00b9dd5"
//
// Ranges are UTF-8 byte offsets into the text as given. Text that is not valid UTF-8 (only
// possible for bytes: a JS string always encodes) throws a FoldInvalidUTF8 with its offset.
"use strict";

class FoldInvalidUTF8 extends Error {
    constructor(offset) {
        super(`not UTF-8 at byte ${offset}`);
        this.byteOffset = offset;
    }
}

class FoldWasm {
    /// Instantiates fold.wasm from its bytes (an ArrayBuffer or a typed array).
    static async load(bytes) {
        let fatal = "";
        const imports = {
            env: {
                // Embedded Swift's fatalError prints here (Wasm/libc/libc.c), a line at a time.
                fold_host_print(pointer, length) {
                    const view = new Uint8Array(instance.exports.memory.buffer, pointer, length);
                    fatal = new TextDecoder().decode(view);
                    console.error("fold.wasm: " + fatal);
                },
            },
        };
        let instance;
        ({ instance } = await WebAssembly.instantiate(bytes, imports));
        return new FoldWasm(instance.exports);
    }

    /// Decodes base64 (the page embeds fold.wasm so that it also opens from disk).
    static bytesOfBase64(base64) {
        const text = atob(base64);
        const bytes = new Uint8Array(text.length);
        for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
        return bytes;
    }

    constructor(exports) {
        this.x = exports;
        this.encoder = new TextEncoder();
        this.decoder = new TextDecoder();
        this.buffers = [null, null];  // two reusable input buffers: [pointer, capacity]
    }

    /// Copies bytes into the module (input slot 0 or 1) and returns their address.
    input(bytes, slot = 0) {
        let buffer = this.buffers[slot];
        if (!buffer || buffer[1] < bytes.length) {
            if (buffer) this.x.fold_free(buffer[0]);
            const capacity = Math.max(1024, bytes.length * 2);
            buffer = this.buffers[slot] = [this.x.fold_alloc(capacity), capacity];
        }
        new Uint8Array(this.x.memory.buffer, buffer[0], bytes.length).set(bytes);
        return buffer[0];
    }

    utf8(text) { return typeof text === "string" ? this.encoder.encode(text) : text; }

    /// The result of the last call, `length` bytes (a view: copy it before the next call).
    result(length) { return new Uint8Array(this.x.memory.buffer, this.x.fold_result(), length); }

    numbers(length) {
        return new Uint32Array(this.x.memory.buffer.slice(this.x.fold_result(), this.x.fold_result() + length));
    }

    check(code) {
        if (code <= -2) throw new FoldInvalidUTF8(-code - 2);
        if (code === -1) throw new Error("fold.wasm: unknown profile or handle");
        return code;
    }

    /// Every profile's name: the presets, then the tailored ones (search-de, ...).
    profiles() {
        const n = this.x.fold_profiles();
        return this.decoder.decode(this.result(n)).split("\n").filter((s) => s);
    }

    /// A folder for a profile (FoldProfile(named:)): a handle for the calls below.
    folder(name) {
        const bytes = this.utf8(name);
        return this.check(this.x.fold_folder(this.input(bytes), bytes.length));
    }

    fingerprint(folder) {
        return this.decoder.decode(this.result(this.check(this.x.fold_fingerprint(folder))));
    }

    /// Folds UTF-8 bytes; returns the folded bytes (a copy).
    foldUTF8(folder, bytes) {
        const n = this.check(this.x.fold_utf8(folder, this.input(bytes), bytes.length));
        return this.result(n).slice();
    }

    /// Folds a string.
    fold(folder, text) { return this.decoder.decode(this.foldUTF8(folder, this.utf8(text))); }

    /// The tokens of a text: [{start, end, folded}], start and end UTF-8 offsets into the text,
    /// folded a string (foldedUTF8 its bytes).
    tokens(folder, text) {
        const bytes = this.utf8(text);
        const n = this.check(this.x.fold_tokens(folder, this.input(bytes), bytes.length));
        const all = this.result(n).slice();
        const view = new DataView(all.buffer);
        const count = view.getUint32(0, true);
        let words = 4 + 12 * count;
        const tokens = [];
        for (let t = 0; t < count; t++) {
            const at = 4 + 12 * t, length = view.getUint32(at + 8, true);
            const foldedUTF8 = all.subarray(words, words + length);
            tokens.push({ start: view.getUint32(at, true), end: view.getUint32(at + 4, true),
                          folded: this.decoder.decode(foldedUTF8), foldedUTF8 });
            words += length;
        }
        return tokens;
    }

    /// A new search index (Fold's SearchIndex) of texts folded by `folder`.
    index(folder) { return this.check(this.x.fold_index_new(folder)); }

    /// Adds lines (an array of strings) to an index; ids continue from its count. Returns the count.
    indexAdd(index, lines) {
        const bytes = this.encoder.encode(lines.join("\n") + "\n");
        return this.check(this.x.fold_index_add(index, this.input(bytes), bytes.length));
    }

    /// Adds the lines of UTF-8 bytes (a file's) to an index; the bytes are checked first, and
    /// bytes that are not UTF-8 add nothing and throw FoldInvalidUTF8 with the offset of the first
    /// bad byte. Returns the index's count.
    indexAddUTF8(index, bytes) {
        return this.check(this.x.fold_index_add(index, this.input(bytes), bytes.length));
    }

    /// Searches texts from..<to of an index: {total, ids} (the first `limit` ids). Mode:
    /// "substring", "words" (word prefixes in order) or "any-order".
    indexSearch(index, query, mode, limit, from, to) {
        const bytes = this.utf8(query);
        const code = { substring: 0, words: 1, "any-order": 2 }[mode] ?? 0;
        const n = this.check(this.x.fold_index_search(index, this.input(bytes), bytes.length, code, limit, from, to));
        const numbers = this.numbers(n);
        return { total: numbers[0], ids: Array.from(numbers.subarray(1)) };
    }

    /// Where a query matches a text (Fold's Matcher.matches(in:)): [[start, end]] in the text's
    /// UTF-8 bytes (the original text: highlight these).
    matches(folder, query, mode, text) {
        const q = this.utf8(query), t = this.utf8(text);
        const code = { substring: 0, words: 1, "any-order": 2 }[mode] ?? 0;
        const n = this.check(this.x.fold_matches(folder, this.input(q, 0), q.length, code, this.input(t, 1), t.length));
        const numbers = this.numbers(n);
        const ranges = [];
        for (let k = 0; k < numbers[0]; k++) ranges.push([numbers[1 + 2 * k], numbers[2 + 2 * k]]);
        return ranges;
    }
}

if (typeof module !== "undefined") module.exports = { FoldWasm, FoldInvalidUTF8 };

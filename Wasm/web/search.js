// search.js: the search page of `foldcheck web` (index.html), searching as the user types the way
// Fold's LiveSearch does in Swift, with Fold's own SearchIndex and Matcher in fold.wasm:
// - a quiet period by query length (QuietPeriod.default: 250 ms for one or two characters,
//   50 ms from three on), restarted by each keystroke; an empty query clears at once;
// - Enter searches at once;
// - only the latest query's results are ever shown: a search runs a block of lines at a time and
//   stops when a newer keystroke arrives (LiveSearch's cancellation);
// - the spinner only after a stall (200 ms, LiveSearch's stallDelay), and off when superseded;
// - word-prefix (in order) and substring modes; the first 50 results (LiveSearch's limit);
// - the original text highlighted, from Matcher.matches(in:)'s ranges.
// It reads FOLD_WASM_BASE64 (fold-wasm.js) and FOLD_PAGE (data.js), both scripts so that the
// page also works opened from disk, where fetch() of a local file fails.
"use strict";

const QUIET_MS = [250, 250, 50];   // QuietPeriod.default
const STALL_MS = 200;              // LiveSearch's stallDelay
const LIMIT = 50;                  // LiveSearch's limit
const BLOCK = 16384;               // lines searched between two checks for a newer query

const page = {
    fold: null, folder: -1, index: -1, lines: [], generation: 0, timer: 0,
    // What the page showed, for the tests: every render of results, with its query.
    renders: [], ready: false, buildMs: 0,
};
window.foldPage = page;

const $ = (id) => document.getElementById(id);
const encoder = new TextEncoder(), decoder = new TextDecoder();

// A zero-delay yield to the event loop (setTimeout(0) is clamped to 4 ms when nested).
const channel = new MessageChannel();
const waiting = [];
channel.port1.onmessage = () => waiting.shift()();
const yieldToEvents = () => new Promise((resolve) => { waiting.push(resolve); channel.port2.postMessage(0); });

function quietDelay(query) {
    const length = [...query].length;
    if (length === 0 || QUIET_MS.length === 0) return 0;
    return length <= QUIET_MS.length ? QUIET_MS[length - 1] : QUIET_MS[QUIET_MS.length - 1];
}

function mode() { return $("mode-substring").checked ? "substring" : "words"; }

function setSpinner(on) { $("spinner").hidden = !on; }

function onKey() {
    const generation = ++page.generation;
    clearTimeout(page.timer);
    const query = $("query").value;
    if (query.trim() === "") {
        setSpinner(false);
        render(generation, query, { total: 0, ids: [] });
        return;
    }
    page.timer = setTimeout(() => search(generation, query), quietDelay(query));
}

function searchNow() {
    const generation = ++page.generation;
    clearTimeout(page.timer);
    search(generation, $("query").value);
}

async function search(generation, query) {
    if (!page.ready) return;
    if (query.trim() === "") { render(generation, query, { total: 0, ids: [] }); return; }
    const started = performance.now();
    const stall = setTimeout(() => { if (page.generation === generation) setSpinner(true); }, STALL_MS);
    const found = { total: 0, ids: [] };
    const m = mode();
    try {
        for (let from = 0; from < page.lines.length; from += BLOCK) {
            if (from > 0) {
                await yieldToEvents();
                if (page.generation !== generation) return;  // superseded: its results never show
            }
            const r = page.fold.indexSearch(page.index, query, m, LIMIT - found.ids.length, from, from + BLOCK);
            found.total += r.total;
            found.ids.push(...r.ids);
        }
    } finally {
        clearTimeout(stall);
        if (page.generation !== generation) setSpinner(false);
    }
    if (page.generation !== generation) return;
    found.ms = performance.now() - started;
    render(generation, query, found);
}

// For the benchmark (Benchmarks/Scripts/wasm_bench.py): one search as a keystroke makes it, with
// no quiet period, to results shown; resolves with its milliseconds.
page.measure = (query) => new Promise((resolve) => {
    const generation = ++page.generation;
    clearTimeout(page.timer);
    $("query").value = query;
    const before = page.renders.length, started = performance.now();
    search(generation, query).then(() => resolve(page.renders.length > before ? performance.now() - started : -1));
});

function highlighted(text, query) {
    const bytes = encoder.encode(text);
    // Adjacent ranges are one highlight (がいど matches ガ, イ and ド, each a word of its own).
    const ranges = [];
    for (const [start, end] of page.fold.matches(page.folder, query, mode(), bytes)) {
        const last = ranges[ranges.length - 1];
        if (last && start === last[1]) last[1] = end; else ranges.push([start, end]);
    }
    const parts = [];
    let at = 0;
    for (const [start, end] of ranges) {
        if (start < at) continue;
        parts.push(document.createTextNode(decoder.decode(bytes.subarray(at, start))));
        const mark = document.createElement("mark");
        mark.textContent = decoder.decode(bytes.subarray(start, end));
        parts.push(mark);
        at = end;
    }
    parts.push(document.createTextNode(decoder.decode(bytes.subarray(at))));
    return parts;
}

function render(generation, query, found) {
    if (page.generation !== generation) return;  // only the latest query's results
    setSpinner(false);
    const list = $("results");
    list.replaceChildren();
    list.dataset.query = query;
    list.dataset.mode = mode();
    for (const id of found.ids) {
        const item = document.createElement("li");
        item.className = "result";
        item.append(...highlighted(page.lines[id], query));
        list.append(item);
    }
    const n = page.lines.length.toLocaleString("en");
    $("status").textContent = query.trim() === "" ? `${n} lines` :
        `${found.total.toLocaleString("en")} of ${n} lines match` +
        (found.total > found.ids.length ? ` (first ${found.ids.length} shown)` : "") +
        (found.ms !== undefined ? ` · ${found.ms.toFixed(1)} ms` : "");
    page.renders.push({ query, generation, at: performance.now(), count: found.ids.length });
}

function showProblem(message) {
    const box = $("problem");
    box.textContent = message;
    box.hidden = false;
}

// A file added from disk: its bytes go to fold.wasm as they are, which checks them.
async function addFile(file) {
    const bytes = new Uint8Array(await file.arrayBuffer());
    try {
        page.fold.indexAddUTF8(page.index, bytes);
    } catch (error) {
        if (error.byteOffset === undefined) throw error;
        let line = 1, lineStart = 0;
        for (let i = 0; i < error.byteOffset; i++) if (bytes[i] === 10) { line++; lineStart = i + 1; }
        showProblem(`${file.name} is not UTF-8: invalid UTF-8 on line ${line} at byte offset ` +
            `${error.byteOffset - lineStart} of the line (byte offset ${error.byteOffset} of the file). ` +
            "Nothing of it was added; convert it to UTF-8 (iconv -t UTF-8) and add it again.");
        return;
    }
    const text = decoder.decode(bytes);
    const lines = text.split("\n");
    if (lines.length && lines[lines.length - 1] === "") lines.pop();
    page.lines.push(...lines);
    $("problem").hidden = true;
    searchNow();
}

async function start() {
    const data = window.FOLD_PAGE;
    document.title = data.title;
    $("title").textContent = data.title;
    $("fingerprint").textContent = "";
    const begin = performance.now();
    page.fold = await FoldWasm.load(FoldWasm.bytesOfBase64(window.FOLD_WASM_BASE64));
    page.folder = page.fold.folder(data.profile);
    page.index = page.fold.index(page.folder);
    page.lines = data.lines;
    for (let from = 0; from < page.lines.length; from += 20000) {
        page.fold.indexAdd(page.index, page.lines.slice(from, from + 20000));
        $("status").textContent = `indexing ${Math.min(from + 20000, page.lines.length).toLocaleString("en")} lines…`;
        await yieldToEvents();
    }
    page.buildMs = performance.now() - begin;
    $("fingerprint").textContent = page.fold.fingerprint(page.folder);
    page.ready = true;
    $("status").textContent = `${page.lines.length.toLocaleString("en")} lines · indexed in ${page.buildMs.toFixed(0)} ms`;
    $("query").addEventListener("input", onKey);
    $("query").addEventListener("keydown", (event) => { if (event.key === "Enter") searchNow(); });
    $("mode-words").addEventListener("change", searchNow);
    $("mode-substring").addEventListener("change", searchNow);
    $("file").addEventListener("change", (event) => { for (const f of event.target.files) addFile(f); });
    if ($("query").value) searchNow();
}

window.addEventListener("DOMContentLoaded", () => start().catch((error) => showProblem("fold.wasm failed: " + error)));

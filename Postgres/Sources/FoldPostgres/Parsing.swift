import CFoldPostgresBridge
import Fold
import Synchronization

/// The text search parser's Swift side: the units of a text (the byte ranges Fold's tokens come
/// from, overlapping ranges merged) and the words of each, from one fold of the whole text.
///
/// PostgreSQL hands a dictionary only the token's own bytes, but Fold's words come from the fold
/// of the whole text (the German ue rule and word boundaries read neighbours; ½ is the range of
/// two words). So the parser keeps the words of the units it gave, and ``foldpg_words`` looks a
/// token up here first: the token PostgreSQL passes to the dictionary is the very pointer the
/// parser returned (ts_parse.c queues the parser's pointer), so a token inside a living parser's
/// text, at a unit's range, is that unit. Text from anywhere else (`ts_lexize`, `ts_debug`, another
/// parser) is folded on its own.
final class Parser: @unchecked Sendable {
    /// One unit: the range of the text it covers and its words (indices into `wordEnds`).
    struct Unit {
        var start: Int
        var end: Int
        var firstWord: Int
        var wordLimit: Int
    }

    /// How much text one chunk takes (then up to the next ASCII byte after a space, a place
    /// where folding and cutting apart equals doing them together).
    static let chunkBytes = 1 << 20

    private(set) var folder: UnsafeRawPointer
    private var entry: FolderEntry
    private(set) var text: UnsafePointer<UInt8>?
    private(set) var count = 0
    /// Where the next chunk starts.
    private var chunkEnd = 0
    /// The current chunk's units and words.
    private var units: [Unit] = []
    private var wordBytes: [UInt8] = []
    private var wordEnds: [Int] = []
    private var nextUnit = 0
    private var lastGiven = -1

    init(folder: UnsafeRawPointer) {
        self.folder = folder
        entry = FolderEntry.of(folder)
    }

    /// Starts on a new text (reusing the arrays' storage).
    func begin(folder: UnsafeRawPointer, text: UnsafePointer<UInt8>?, count: Int) {
        self.folder = folder
        entry = FolderEntry.of(folder)
        self.text = text
        self.count = text == nil ? 0 : count
        chunkEnd = 0
        clearChunk()
    }

    func end() {
        text = nil
        count = 0
        clearChunk()
    }

    private func clearChunk() {
        units.removeAll(keepingCapacity: units.capacity <= 1 << 16)
        wordBytes.removeAll(keepingCapacity: wordBytes.capacity <= 1 << 20)
        wordEnds.removeAll(keepingCapacity: wordEnds.capacity <= 1 << 16)
        nextUnit = 0
        lastGiven = -1
    }

    /// The next unit's range, or nil at the end of the text.
    func next() throws -> Range<Int>? {
        while nextUnit >= units.count {
            guard chunkEnd < count else { return nil }
            try loadChunk()
        }
        let unit = units[nextUnit]
        lastGiven = nextUnit
        nextUnit += 1
        return unit.start..<unit.end
    }

    /// Where the chunk that starts at `start` ends: after about ``chunkBytes``, at an ASCII byte
    /// that follows an ASCII space, tab or line break (no word, fold or dictionary segment
    /// crosses that point), or at the end of the text.
    private func chunkEnd(from start: Int) -> Int {
        guard let text, count - start > Self.chunkBytes else { return count }
        var p = start + Self.chunkBytes
        while p < count {
            let before = text[p - 1]
            if text[p] < 0x80 && (before == 0x20 || before == 0x0A || before == 0x09 || before == 0x0D) { return p }
            p += 1
        }
        return count
    }

    private func loadChunk() throws {
        clearChunk()
        guard let text else { return }
        let start = chunkEnd
        let end = chunkEnd(from: start)
        chunkEnd = end
        do {
            try entry.tokenizer.forEachToken(inUTF8: UnsafeBufferPointer(start: text + start, count: end - start)) { folded, range in
                wordBytes.append(contentsOf: folded)
                wordEnds.append(wordBytes.count)
                let unitStart = start + range.lowerBound, unitEnd = start + range.upperBound
                if let last = units.last, unitStart < last.end {
                    units[units.count - 1].end = max(last.end, unitEnd)
                    units[units.count - 1].wordLimit = wordEnds.count
                } else {
                    units.append(Unit(start: unitStart, end: unitEnd, firstWord: wordEnds.count - 1, wordLimit: wordEnds.count))
                }
            }
        } catch let error as InvalidUTF8Error {
            throw InvalidUTF8Error(byteOffset: start + error.byteOffset)
        }
    }

    /// The unit of the current chunk with exactly this range, if the parser gave it.
    func unit(start: Int, count: Int) -> Unit? {
        if lastGiven >= 0, units[lastGiven].start == start {
            return units[lastGiven].end - start == count ? units[lastGiven] : nil
        }
        var low = 0, high = min(nextUnit, units.count)
        while low < high {
            let mid = (low + high) / 2
            if units[mid].start < start { low = mid + 1 } else { high = mid }
        }
        guard low < units.count, low < nextUnit, units[low].start == start, units[low].end - start == count else { return nil }
        return units[low]
    }

    /// Appends the words of `unit` to `out`, each followed by a NUL byte.
    func appendWords(of unit: Unit, to out: UnsafeMutablePointer<foldpg_buffer>) throws -> Int {
        var from = unit.firstWord == 0 ? 0 : wordEnds[unit.firstWord - 1]
        for word in unit.firstWord..<unit.wordLimit {
            let to = wordEnds[word]
            try wordBytes.withUnsafeBytes { bytes in
                try append(UnsafeRawBufferPointer(rebasing: bytes[from..<to]), to: out)
            }
            try appendNUL(to: out)
            from = to
        }
        return unit.wordLimit - unit.firstWord
    }
}

func appendNUL(to out: UnsafeMutablePointer<foldpg_buffer>) throws(Status) {
    var zero: UInt8 = 0
    let rc = cfoldpg_append(out, &zero, 1)
    if rc != Status.ok.rawValue { throw Status(rawValue: rc) ?? .failed }
}

/// The parsers that live in this backend (between `foldpg_parser_make` and
/// `foldpg_parser_release`), newest last, and a few released ones kept for reuse.
enum Parsers {
    private struct State: @unchecked Sendable {
        var live: [Parser] = []
        var spare: [Parser] = []
    }
    private static let state = Mutex(State())

    static func make(folder: UnsafeRawPointer, text: UnsafePointer<UInt8>?, count: Int) -> Parser {
        let parser = state.withLock { $0.spare.popLast() } ?? Parser(folder: folder)
        parser.begin(folder: folder, text: text, count: count)
        state.withLock { $0.live.append(parser) }
        return parser
    }

    static func release(_ parser: Parser) {
        parser.end()
        state.withLock { state in
            if let i = state.live.lastIndex(where: { $0 === parser }) { state.live.remove(at: i) }
            if state.spare.count < 2 { state.spare.append(parser) }
        }
    }

    /// The living parser of `folder` that gave `token` as a unit, and that unit.
    static func unit(of token: UnsafePointer<UInt8>, count: Int, folder: UnsafeRawPointer) -> (Parser, Parser.Unit)? {
        state.withLock { state in
            for parser in state.live.reversed() where parser.folder == folder {
                guard let text = parser.text, token >= text, token + count <= text + parser.count else { continue }
                if let unit = parser.unit(start: token - text, count: count) { return (parser, unit) }
            }
            return nil
        }
    }
}

@_cdecl("foldpg_parser_make")
func foldpgParserMake(_ folder: UnsafeRawPointer, _ text: UnsafePointer<UInt8>?, _ count: Int64) -> UnsafeMutableRawPointer {
    Unmanaged.passRetained(Parsers.make(folder: folder, text: text, count: Int(max(0, count)))).toOpaque()
}

@_cdecl("foldpg_parser_next")
func foldpgParserNext(_ parser: UnsafeMutableRawPointer, _ start: UnsafeMutablePointer<Int64>, _ end: UnsafeMutablePointer<Int64>,
                      _ errorOffset: UnsafeMutablePointer<Int64>?) -> Int32 {
    let parser = Unmanaged<Parser>.fromOpaque(parser).takeUnretainedValue()
    do {
        guard let range = try parser.next() else { return Status.end.rawValue }
        start.pointee = Int64(range.lowerBound)
        end.pointee = Int64(range.upperBound)
        return Status.unit.rawValue
    } catch {
        return status(of: error, errorOffset: errorOffset)
    }
}

@_cdecl("foldpg_parser_release")
func foldpgParserRelease(_ parser: UnsafeMutableRawPointer) {
    let unmanaged = Unmanaged<Parser>.fromOpaque(parser)
    Parsers.release(unmanaged.takeUnretainedValue())
    unmanaged.release()
}

@_cdecl("foldpg_words")
func foldpgWords(_ folder: UnsafeRawPointer, _ token: UnsafePointer<UInt8>?, _ count: Int64, _ out: UnsafeMutablePointer<foldpg_buffer>,
                 _ wordCount: UnsafeMutablePointer<Int32>, _ errorOffset: UnsafeMutablePointer<Int64>?) -> Int32 {
    wordCount.pointee = 0
    guard let token, count > 0 else { return Status.ok.rawValue }
    do {
        if let (parser, unit) = Parsers.unit(of: token, count: Int(count), folder: folder) {
            wordCount.pointee = Int32(try parser.appendWords(of: unit, to: out))
            return Status.ok.rawValue
        }
        // Not a unit of a living parser: fold and cut this text on its own.
        let entry = FolderEntry.of(folder)
        var words: Int32 = 0
        try entry.tokenizer.forEachToken(inUTF8: UnsafeBufferPointer(start: token, count: Int(count))) { folded, _ in
            try append(UnsafeRawBufferPointer(folded), to: out)
            try appendNUL(to: out)
            words += 1
        }
        wordCount.pointee = words
        return Status.ok.rawValue
    } catch {
        return status(of: error, errorOffset: errorOffset)
    }
}

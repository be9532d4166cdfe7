internal import CFoldSupport

/// The fold of one profile: decomposition and mapping tables, canonical reordering and
/// composition. Engines are shared by every ``Folder`` with the same steps.
final class FoldEngine: Sendable {
    let steps: FoldProfile.Steps
    let pipeline: ScalarPipeline
    let core: Core
    /// Each code point's fold alone, as UTF-8, for the fast path.
    let fastTable: FastTable
    /// Whether every ASCII character folds alone to one ASCII character: then an ASCII text
    /// whose fold has its length has the same shape as its fold (the tokenizer's cheap map).
    let asciiKeepsShape: Bool

    /// The word boundaries of this fold's tokens: ``WordBreakTable/shared``, or a test's table
    /// with a rule changed (``Folder/init(_:wordBreakTable:)``).
    var wordBreakTable: WordBreakTable { wordBreakTableAddress.pointee }

    /// Where the table is, at an address that lives as long as the process, for the tokens of a
    /// text to hold as one word rather than copy: the shared table's (built on first use, so that
    /// a folder that never tokenizes never builds it), or a test table's (allocated with its
    /// engine and never freed; only tests make such engines).
    /// (Read from a slot of the engine once it is known: a load, where the shared table's global
    /// would cost a call for each text.)
    @inline(__always)
    var wordBreakTableAddress: UnsafePointer<WordBreakTable> {
        if let known = cfold_load_acquire(wordBreakTableSlot) { return UnsafePointer(known.assumingMemoryBound(to: WordBreakTable.self)) }
        return publishWordBreakTable()
    }
    nonisolated(unsafe) private let ownWordBreakTable: UnsafePointer<WordBreakTable>?
    /// Where ``wordBreakTableAddress`` is kept once known (NULL before).
    nonisolated(unsafe) private let wordBreakTableSlot: UnsafeMutablePointer<UnsafeMutableRawPointer?>

    @inline(never)
    private func publishWordBreakTable() -> UnsafePointer<WordBreakTable> {
        let address = ownWordBreakTable ?? WordBreakTable.sharedAddress
        _ = cfold_publish(wordBreakTableSlot, UnsafeMutableRawPointer(mutating: address))
        return address
    }

    var decompositions: ScalarTable { core.decompositions }
    var mappings: ScalarTable? { core.mappings }

    /// An engine for `steps` with the word boundaries of `wordBreakTable` (nil: the shared table's).
    init(steps: FoldProfile.Steps, wordBreakTable: WordBreakTable?) {
        wordBreakTableSlot = UnsafeMutablePointer<UnsafeMutableRawPointer?>.allocate(capacity: 1)
        wordBreakTableSlot.initialize(to: nil)
        if let wordBreakTable {
            let address = UnsafeMutablePointer<WordBreakTable>.allocate(capacity: 1)
            address.initialize(to: wordBreakTable)
            ownWordBreakTable = UnsafePointer(address)
        } else {
            ownWordBreakTable = nil
        }
        self.steps = steps
        let pipeline = ScalarPipeline(steps: steps)
        self.pipeline = pipeline
        core = Core(steps: steps, pipeline: pipeline)
        fastTable = FastTable(core: core)
        let general = core
        asciiKeepsShape = (0..<128).allSatisfy { v in
            let e = general.foldElements([Unicode.Scalar(UInt8(v))])
            return e.count == 1 && e[0].scalar < 0x80
        }
    }

    nonisolated(unsafe) private static var engines: [FoldProfile.Steps: FoldEngine] = [:]
    private static let enginesLock = Lock()

    /// The shared engine for these steps.
    static func shared(_ steps: FoldProfile.Steps) -> FoldEngine {
        enginesLock.withLock {
            if let engine = engines[steps] { return engine }
            let engine = FoldEngine(steps: steps, wordBreakTable: nil)
            engines[steps] = engine
            return engine
        }
    }

    /// One scalar of the fold in progress: its value, its canonical combining class, and the
    /// range of input scalars (by index) that produced it.
    struct Element {
        var scalar: UInt32
        var ccc: UInt8
        var sourceStart: Int32
        var sourceEnd: Int32
    }

    /// The general path on a whole text: the per-scalar steps (``Core/foldElements(_:)``),
    /// then the rules on the folded text (the German spellings). The fast path's segments and
    /// tables use the core alone.
    func foldElements<S: Sequence>(_ input: S) -> [Element] where S.Element == Unicode.Scalar {
        var elements = core.foldElements(input)
        if steps.tailoring == .german { FoldEngine.foldGermanSpellings(&elements) }
        return elements
    }
}

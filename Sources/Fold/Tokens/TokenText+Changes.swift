#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension TokenText {
    /// Consecutive units of the fold with the same changed shape (``OffsetMap/Run``: the one
    /// offset model).
    typealias ChangeRun = OffsetMap.Run

    /// A position among the changes for lookups that only move forward (the tokens of a text):
    /// linear over all of them.
    struct Cursor {
        /// The first change that ends after the last byte looked up.
        var next = 0
        /// `originalStart - foldedStart` for the bytes of the same shape before `next`.
        var delta = 0

        @inline(__always)
        mutating func originalUTF8Range(ofFolded range: Range<Int>, changes: UnsafePointer<ChangeRun>, count: Int,
                                        search: Bool = false) -> Range<Int> {
            guard count > 0, !range.isEmpty else { return range.lowerBound + delta..<range.upperBound + delta }
            if search {
                // The first change that ends after the range's first byte.
                var low = 0, high = count
                while low < high {
                    let mid = (low + high) / 2
                    if changes[mid].foldedEnd <= range.lowerBound { low = mid + 1 } else { high = mid }
                }
                next = low
                delta = low > 0 ? changes[low - 1].originalEnd - changes[low - 1].foldedEnd : 0
            }
            let start = originalOffset(of: range.lowerBound, changes, count, end: false)
            let end = originalOffset(of: range.upperBound - 1, changes, count, end: true)
            return start..<end
        }

        /// The original range of the word `range` of the fold (the next lookup starts at or
        /// after its end, so a change that ends with it is passed), and the shift that maps
        /// the fold after it, with how far it holds (``shiftEnd(after:changes:count:)``).
        @inline(__always)
        mutating func originalUTF8Range(ofWord range: Range<Int>, changes: UnsafePointer<ChangeRun>, count: Int)
            -> (original: Range<Int>, shift: Int, shiftEnd: Int) {
            let original = originalUTF8Range(ofFolded: range, changes: changes, count: count)
            skipChanges(endingBy: range.upperBound, changes: changes, count: count)
            return (original, delta, shiftEnd(after: range.upperBound, changes: changes, count: count))
        }

        /// How far from `p` on `delta` maps the fold: to the start of the next change, which
        /// the cursor points at (once past the changes that end at or before `p`); nowhere
        /// (`p`) when `p` is inside it.
        @inline(__always)
        func shiftEnd(after p: Int, changes: UnsafePointer<ChangeRun>, count: Int) -> Int {
            guard next < count else { return Int.max }
            let start = changes[next].foldedStart
            return start >= p ? start : p
        }

        /// Moves past the changes that end at or before `p` of the fold: `delta` then maps `p`
        /// and the bytes after it up to the next change's start, if `p` is not inside it.
        @inline(__always)
        mutating func skipChanges(endingBy p: Int, changes: UnsafePointer<ChangeRun>, count: Int) {
            while next < count && changes[next].foldedEnd <= p {
                delta = changes[next].originalEnd - changes[next].foldedEnd
                next += 1
            }
        }

        /// The start (or the end) in the original of the unit that holds folded byte `p`.
        @inline(__always)
        private mutating func originalOffset(of p: Int, _ changes: UnsafePointer<ChangeRun>, _ count: Int, end: Bool) -> Int {
            while next < count && changes[next].foldedEnd <= p {
                delta = changes[next].originalEnd - changes[next].foldedEnd
                next += 1
            }
            if next < count && changes[next].foldedStart <= p {
                // The unit of the run that holds p (its fold is not empty: p is in it).
                // Counted from the run's end: units after the one that holds p.
                let run = changes[next]
                let after = run.count == 1 ? 0 : (run.foldedEnd - 1 - p) / Int(run.foldedLength)
                return run.originalEnd - (end ? after : after + 1) * run.originalLength
            }
            // Same shape: scalar for scalar, so a scalar boundary of the fold is one of the
            // original, `delta` further.
            return end ? p + 1 + delta : p + delta
        }
    }

    /// The changes as ``perScalar`` finds them, as runs: a buffer that doubles when full.
    struct ChangeLog: ShapeLog {
        /// Allocated at the first change.
        private(set) var base: UnsafeMutablePointer<ChangeRun>? = nil
        private var capacity = 0
        var count = 0

        @inline(__always)
        mutating func append(_ run: ChangeRun) {
            if count == capacity { grow() }
            (base! + count).initialize(to: run)
            count += 1
        }

        /// Adds a unit: `foldedLength` bytes at `foldedStart` from `originalLength` bytes at
        /// `originalStart`, to the last run when it has the same shape and ends where it starts.
        @inline(__always)
        mutating func appendUnit(_ foldedStart: Int, _ foldedLength: Int, _ originalStart: Int, _ originalLength: Int) {
            if count > 0 {
                let last = base! + (count - 1)
                if last.pointee.foldedEnd == foldedStart && last.pointee.originalEnd == originalStart && Int(last.pointee.foldedLength) == foldedLength
                    && last.pointee.originalLength == originalLength && foldedLength > 0 && last.pointee.count < UInt32.max {
                    last.pointee.count += 1
                    last.pointee.foldedEnd += foldedLength
                    last.pointee.originalEnd += originalLength
                    return
                }
            }
            append(ChangeRun(foldedStart: foldedStart, originalStart: originalStart, originalLength: originalLength,
                             foldedLength: UInt32(foldedLength), count: 1))
        }

        @inline(__always)
        mutating func recordUnit(_ foldedStart: Int, _ foldedLength: Int, _ originalStart: Int, _ originalLength: Int) {
            appendUnit(foldedStart, foldedLength, originalStart, originalLength)
        }

        @inline(__always)
        mutating func recordExtension(unitFoldedStart: Int, unitFoldedEnd: Int, unitOriginalStart: Int, originalEnd: Int) {
            if lastUnitFoldedStart == unitFoldedStart {
                extendLastUnit(toOriginalEnd: originalEnd)
            } else {
                appendUnit(unitFoldedStart, unitFoldedEnd - unitFoldedStart, unitOriginalStart, originalEnd - unitOriginalStart)
            }
        }

        /// Where the last unit starts in the fold (-1 when there is none).
        @inline(__always)
        var lastUnitFoldedStart: Int {
            guard count > 0 else { return -1 }
            let last = base![count - 1]
            return last.foldedEnd - Int(last.foldedLength)
        }

        /// Makes the last unit's source end at `originalEnd` (a mark or ignorable joins it).
        @inline(__always)
        mutating func extendLastUnit(toOriginalEnd originalEnd: Int) {
            let last = base![count - 1]
            let unitStart = last.originalEnd - last.originalLength
            if last.count == 1 {
                base![count - 1].originalLength = originalEnd - unitStart
                base![count - 1].originalEnd = originalEnd
                return
            }
            // Out of its run, into one of its own.
            base![count - 1].count -= 1
            base![count - 1].foldedEnd -= Int(last.foldedLength)
            base![count - 1].originalEnd = unitStart
            append(ChangeRun(foldedStart: last.foldedEnd - Int(last.foldedLength), originalStart: unitStart,
                             originalLength: originalEnd - unitStart, foldedLength: last.foldedLength, count: 1))
        }

        /// Twice the room, by `realloc`: a large buffer grows in place (the pages are remapped),
        /// so a text with millions of changes does not hold the old and the new buffer at once.
        private mutating func grow() {
            let bigger = max(16, 2 * capacity)
            guard let raw = realloc(base, bigger * MemoryLayout<ChangeRun>.stride) else {
                fatalError("out of memory for \(bigger) changes")
            }
            base = raw.bindMemory(to: ChangeRun.self, capacity: bigger)
            capacity = bigger
        }

        /// Frees the buffer (unless a text took it).
        func deallocate() { free(base) }

        /// Empties the log, keeping its buffer (a tokenizer's next text).
        @inline(__always)
        mutating func removeAll() { count = 0 }
    }
}

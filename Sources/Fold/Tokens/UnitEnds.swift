/// The changes of shape of a fold as the ``Tokenizer`` maps words with them: at each boundary
/// of the fold where a unit whose shape changed ends, the original offset there (``originalEnds``,
/// written only there), and two bitmaps over the fold's boundaries (0 through its length): those
/// ends and the boundaries inside a unit of more than one folded byte whose shape changed
/// (``special``), and the latter alone (``inside``: ß → ss, ½ → 1⁄2), which are not boundaries of
/// the original.
///
/// Writing a number and a bit per change is cheaper than a run in a ``TokenText/ChangeLog``, and
/// a boundary's original offset is then the last such end before it and the distance from it (a
/// bit scan and a load), with no branch per change. Offsets are `UInt32`: a text of 4 GB or more
/// takes the change log. The bitmaps are all zero before a fold and are cleared after it
/// (``clear(upTo:)``); the ends are only read where a bit says they were written.
struct UnitEnds: ShapeLog {
    /// Room for `capacity + 1` offsets, and one before them (read, never used, by
    /// ``Window/original(_:_:)``).
    let originalEnds: UnsafeMutablePointer<UInt32>
    /// Room for `capacity / 64 + 2` words each.
    let special: UnsafeMutablePointer<UInt64>, inside: UnsafeMutablePointer<UInt64>

    @inline(__always)
    private func end(at p: Int, _ originalEnd: Int) {
        originalEnds[p] = UInt32(truncatingIfNeeded: originalEnd)
        special[p &>> 6] |= 1 &<< UInt64(p & 63)
    }

    @inline(__always)
    mutating func recordUnit(_ foldedStart: Int, _ foldedLength: Int, _ originalStart: Int, _ originalLength: Int) {
        let end = foldedStart &+ foldedLength
        self.end(at: end, originalStart &+ originalLength)
        if foldedLength > 1 { markInside(foldedStart &+ 1, end) }
    }

    @inline(__always)
    mutating func recordExtension(unitFoldedStart: Int, unitFoldedEnd: Int, unitOriginalStart: Int, originalEnd: Int) {
        end(at: unitFoldedEnd, originalEnd)
    }

    /// Marks the boundaries `from..<to` as inside a unit (rare: units of more than one folded
    /// byte whose shape changed).
    private func markInside(_ from: Int, _ to: Int) {
        var p = from
        while p < to {
            inside[p &>> 6] |= 1 &<< UInt64(p & 63)
            special[p &>> 6] |= 1 &<< UInt64(p & 63)
            p &+= 1
        }
    }

    /// Whether a fold of `count` bytes changed the shape of anything.
    func hasChanges(upTo count: Int) -> Bool {
        for k in 0...(count &>> 6) where special[k] != 0 { return true }
        return false
    }

    /// Zeroes the bitmaps as far as a fold of up to `count` bytes may have written them.
    func clear(upTo count: Int) {
        let words = count &>> 6 &+ 1
        // A text of up to 255 bytes (most lines): four words each, whatever its length, so
        // that no loop's exit depends on it (the bitmaps have room for six words at least,
        // and a fold writes no bit past its length).
        if words <= 4 {
            (special[0], special[1], special[2], special[3]) = (0, 0, 0, 0)
            (inside[0], inside[1], inside[2], inside[3]) = (0, 0, 0, 0)
            return
        }
        var k = 0
        while k < words {
            special[k] = 0
            inside[k] = 0
            k &+= 1
        }
    }
}

extension UnitEnds {
    /// Maps the words of a fold, in order, to the original: the original offset of a boundary
    /// is the last changed unit's end at or before it plus the distance from there.
    struct Mapper {
        let originalEnds: UnsafePointer<UInt32>, special: UnsafePointer<UInt64>, inside: UnsafePointer<UInt64>
        /// The number of words of the bitmaps that hold the fold's boundaries.
        let words: Int

        init(_ ends: UnitEnds, foldedCount: Int) {
            (originalEnds, special, inside) = (UnsafePointer(ends.originalEnds), UnsafePointer(ends.special), UnsafePointer(ends.inside))
            words = foldedCount &>> 6 &+ 1
        }

        /// The original range of the word `start..<end`, the shift that maps the words after it
        /// and the last end it maps (before the next boundary where anything happens; -1 when
        /// the word ends inside a unit, as the next word may then start inside it too).
        @inline(__always)
        func original(_ start: Int, _ end: Int) -> (original: Range<Int>, shift: Int, shiftEnd: Int) {
            // A word from the middle of an expansion (the 2 of ½ → 1⁄2) starts with it.
            let originalStart = originalOffset(isInside(start) ? unitStart(before: start) : start)
            guard isInside(end) else {
                let originalEnd = originalOffset(end)
                return (Range(uncheckedBounds: (originalStart, originalEnd)), originalEnd &- end, nextSpecial(after: end) &- 1)
            }
            let unitEnd = boundary(after: end)
            return (Range(uncheckedBounds: (originalStart, Int(originalEnds[unitEnd]))), 0, -1)
        }

        /// The original offset of boundary `p` of the fold (not inside a unit): from the last
        /// changed unit's end at or before it.
        @inline(__always)
        private func originalOffset(_ p: Int) -> Int {
            guard let last = last(.ends, atOrBefore: p) else { return p }
            return Int(originalEnds[last]) &+ (p &- last)
        }

        @inline(__always)
        private func isInside(_ p: Int) -> Bool { inside[p &>> 6] &>> UInt64(p & 63) & 1 != 0 }

        /// The first boundary after `p` that is not inside a unit (an expansion such as U+FDFA
        /// spans tens of boundaries; the boundaries past the fold are inside nothing).
        private func boundary(after p: Int) -> Int { first(.notInside, atOrAfter: p &+ 1)! }

        /// The last boundary before `p` that is not inside a unit (boundary 0 is inside nothing).
        private func unitStart(before p: Int) -> Int { last(.notInside, atOrBefore: p &- 1)! }

        /// The first boundary after `p` where anything happens (`Int.max` when none).
        @inline(__always)
        private func nextSpecial(after p: Int) -> Int { first(.special, atOrAfter: p &+ 1) ?? Int.max }

        /// The bitmaps the scans read: the changed units' ends, the boundaries inside no unit,
        /// and the boundaries where anything happens.
        enum Bits { case ends, notInside, special }

        /// Word `k` of `bits`.
        @inline(__always)
        func word(_ bits: Bits, _ k: Int) -> UInt64 {
            switch bits {
            case .ends: special[k] & ~inside[k]
            case .notInside: ~inside[k]
            case .special: special[k]
            }
        }

        /// The last boundary at or before `q` whose bit is set in `bits`, looking back no
        /// further than word `firstWord` (nil when there is none).
        @inline(__always)
        func last(_ bits: Bits, atOrBefore q: Int, notBeforeWord firstWord: Int = 0) -> Int? {
            var k = q &>> 6
            var w = word(bits, k) & (~0 &>> UInt64(63 &- (q & 63)))
            while w == 0 {
                guard k > firstWord else { return nil }
                k &-= 1
                w = word(bits, k)
            }
            return k &<< 6 | (63 &- w.leadingZeroBitCount)
        }

        /// The first boundary at or after `q` whose bit is set in `bits`, among the fold's
        /// words of boundaries (nil when there is none).
        @inline(__always)
        func first(_ bits: Bits, atOrAfter q: Int) -> Int? {
            var k = q &>> 6
            guard k < words || bits == .notInside else { return nil }
            var w = word(bits, k) & (~0 &<< UInt64(q & 63))
            while w == 0 {
                k &+= 1
                // `.notInside` always ends (past the fold every bit is set); the others stop
                // at the fold's last word.
                guard k < words || bits == .notInside else { return nil }
                w = word(bits, k)
            }
            return k &<< 6 | w.trailingZeroBitCount
        }

        /// The 64 boundaries of the fold from `base` as a ``Window``, with the shift before it
        /// from `cursor` (moved to `base`: windows come in order).
        @inline(__always)
        func window(at base: Int, _ cursor: inout ShiftCursor) -> Window {
            let k = base &>> 6, r = UInt64(base & 63)
            let ends0 = special[k] & ~inside[k], ends1 = special[k &+ 1] & ~inside[k &+ 1]
            let ends = ends0 &>> r | (r == 0 ? 0 : ends1 &<< (64 &- r))
            let inside = self.inside[k] &>> r | (r == 0 ? 0 : self.inside[k &+ 1] &<< (64 &- r))
            return Window(base: base, ends: ends, inside: inside, shift: cursor.shift(before: base, self))
        }

        /// The shift (original minus folded offset) after the last changed unit's end before a
        /// boundary, for boundaries in order: linear over a text.
        struct ShiftCursor {
            /// The boundaries before `at` are counted.
            var at = 0, shift = 0

            @inline(__always)
            mutating func shift(before p: Int, _ mapper: Mapper) -> Int {
                guard p > at else { return shift }
                // The last end in at ..< p, if any (looked for back to the word of `at` only).
                if let last = mapper.last(.ends, atOrBefore: p &- 1, notBeforeWord: at &>> 6), last >= at {
                    shift = Int(mapper.originalEnds[last]) &- last
                }
                at = p
                return shift
            }
        }

    }

    /// 64 boundaries of a fold from `base`: the original offset of each that is not inside a
    /// unit from the bits of the changed units' ends among them and the shift before them,
    /// with no branch.
    struct Window {
        let base: Int
        /// Bit j: boundary `base + j` ends a changed unit.
        let ends: UInt64
        /// Bit j: boundary `base + j` is inside a unit (the ``Mapper`` maps the words that
        /// start or end there).
        let inside: UInt64
        /// Original minus folded offset before `base`.
        let shift: Int

        /// Whether the window maps the word `start..<end` (boundaries of the window): neither
        /// end is inside a unit.
        @inline(__always)
        func maps(_ start: Int, _ end: Int) -> Bool {
            (inside &>> UInt64(start &- base) | inside &>> UInt64(end &- base)) & 1 == 0
        }

        /// The original range of the word `start..<end` (boundaries of the window).
        @inline(__always)
        func original(_ start: Int, _ end: Int, _ originalEnds: UnsafePointer<UInt32>) -> Range<Int> {
            // A window without a change of shape (most of English) maps the same way, to the
            // shift, so it takes no test of its own (which would be one more branch to guess).
            return Range(uncheckedBounds: (original(start, originalEnds), original(end, originalEnds)))
        }

        /// The original offset of boundary `p` (`base ..< base + 64`).
        @inline(__always)
        func original(_ p: Int, _ originalEnds: UnsafePointer<UInt32>) -> Int {
            let m = ends & ((2 &<< UInt64(p &- base)) &- 1)
            // With no end up to p, `last` is base - 1 and its load unused.
            let last = base &+ 63 &- m.leadingZeroBitCount
            let fromEnd = Int(originalEnds[last]) &+ (p &- last)
            // One or the other by a mask, not a branch: whether an end comes before p is a
            // guess the text decides in accented text, where a branch would often guess wrong.
            let hasEnd = Int(bitPattern: UInt(truncatingIfNeeded: 0 &- ((m | (0 &- m)) &>> 63)))
            return fromEnd & hasEnd | (p &+ shift) & ~hasEnd
        }
    }
}

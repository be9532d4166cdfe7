/// What each code point maps to, one page of 256 code points at a time, laid out on first use:
/// copied from a generated map (``PresetMaps``) for the preset profiles, computed by the
/// pipeline for any other profile (so a one-word fold does not pay for the whole of Unicode).
///
/// Pages are immutable once built and are published with a compare-and-swap, so lookups take no
/// lock: two threads that build the same page at once keep one of the two.
final class ScalarTable: @unchecked Sendable {
    static let pageCount = 0x110000 >> 8

    final class Page {
        /// `offsets[i]..<offsets[i + 1]` is the slice of `data` that code point `i` maps to.
        let offsets: [UInt32]
        let data: [UInt32]

        init(offsets: [UInt32], data: [UInt32]) {
            self.offsets = offsets
            self.data = data
        }
    }

    private let slots: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    private let build: (@Sendable (UInt32) -> [UInt32]?)?
    private let generated: PresetMaps.Map?
    /// The default of `generated`'s code points: their decomposition of this kind, or (nil)
    /// themselves.
    private let defaultCompatibility: Bool?

    /// A table whose code points map to what `build` gives them; nil for a code point that maps
    /// to itself (no array made).
    convenience init(build: @escaping @Sendable (UInt32) -> [UInt32]?) {
        self.init(build: build, generated: nil, compatibility: nil)
    }

    /// A table read from a generated map, whose unlisted code points decompose as
    /// `compatibility` says (nil: map to themselves).
    convenience init(generated: PresetMaps.Map, compatibility: Bool?) {
        self.init(build: nil, generated: generated, compatibility: compatibility)
    }

    private init(build: (@Sendable (UInt32) -> [UInt32]?)?, generated: PresetMaps.Map?, compatibility: Bool?) {
        self.build = build
        self.generated = generated
        defaultCompatibility = compatibility
        slots = .allocate(capacity: Self.pageCount)
        slots.initialize(repeating: nil, count: Self.pageCount)
    }

    deinit {
        for i in 0..<Self.pageCount {
            if let page = slots[i] { Unmanaged<Page>.fromOpaque(page).release() }
        }
        slots.deallocate()
    }

    private func buildPage(_ index: Int) -> UnsafeMutableRawPointer {
        var offsets: [UInt32] = [0]
        var data: [UInt32] = []
        offsets.reserveCapacity(257)
        data.reserveCapacity(256)
        if let generated {
            PresetMaps.appendPage(index, generated, compatibility: defaultCompatibility, data: &data, offsets: &offsets)
        } else {
            for low in 0..<256 {
                let scalar = UInt32(index << 8 | low)
                if (0xD800...0xDFFF).contains(scalar) {
                    data.append(scalar)
                } else if let mapped = build!(scalar) {
                    data.append(contentsOf: mapped)
                } else {
                    data.append(scalar)
                }
                offsets.append(UInt32(data.count))
            }
        }
        let page = Unmanaged.passRetained(Page(offsets: offsets, data: data)).toOpaque()
        if Atomics.publish(slots + index, page) { return page }
        Unmanaged<Page>.fromOpaque(page).release()
        return Atomics.loadAcquire(slots + index)!
    }

    @inline(__always)
    func page(_ index: Int) -> Page {
        let raw = Atomics.loadAcquire(slots + index) ?? buildPage(index)
        return Unmanaged<Page>.fromOpaque(raw).takeUnretainedValue()
    }

    /// What `scalar` maps to.
    @inline(__always)
    func withMapping<R>(_ scalar: UInt32, _ body: (ArraySlice<UInt32>) throws -> R) rethrows -> R {
        let page = page(Int(scalar >> 8))
        let low = Int(scalar & 0xFF)
        return try body(page.data[Int(page.offsets[low])..<Int(page.offsets[low + 1])])
    }

    func mapping(_ scalar: UInt32) -> [UInt32] { withMapping(scalar) { Array($0) } }

    /// Whether `scalar` maps to itself alone.
    func mapsToItself(_ scalar: UInt32) -> Bool {
        let page = page(Int(scalar >> 8))
        let low = Int(scalar & 0xFF)
        let start = Int(page.offsets[low])
        return page.offsets[low + 1] == page.offsets[low] + 1 && page.data[start] == scalar
    }
}

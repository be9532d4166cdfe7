internal import CFoldUnicodeData

/// Steps 1 to 7 of every preset profile, generated: what ``ScalarPipeline`` gives each code
/// point, baked by `make generate` into CFoldUnicodeData's preset_maps.c, so that a folder of a
/// preset (``FoldProfile/presets``, ``FoldProfile/tailoredPresets``, or any profile with the same
/// steps) runs no step at run time: its ``ScalarTable`` pages are copies of generated data.
///
/// A map lists only the code points whose value is not the default (their own decomposition, or
/// themselves); a tailored preset's map lists what differs from the search profile's. The tests
/// compare every code point of every preset with the pipeline, and `fold-generate --check` the
/// file with a fresh generation.
package enum PresetMaps {
    /// One generated map (``FoldPresetMap``).
    struct Map: @unchecked Sendable {
        let raw: FoldPresetMap
        /// The map consulted for code points this one does not list.
        var base: Map? { raw.base < 0 ? nil : Map(raw: fold_preset_maps.maps[Int(raw.base)]) }

        /// The index of the first listed code point at or after `value`.
        func lowerBound(_ value: UInt32) -> Int {
            var low = 0, high = Int(raw.count)
            while low < high {
                let mid = (low + high) >> 1
                if raw.keys[mid] < value { low = mid + 1 } else { high = mid }
            }
            return low
        }

        /// The value listed at `index`.
        func value(at index: Int) -> UnsafeBufferPointer<UInt32> {
            let start = Int(raw.offsets[index]), end = Int(raw.offsets[index + 1])
            return UnsafeBufferPointer(start: raw.data + start, count: end - start)
        }
    }

    /// The maps of the preset whose steps are `steps`, or nil when no preset has them.
    static func maps(for steps: FoldProfile.Steps) -> (decompositions: Map, mappings: Map?)? {
        let code = stepsCode(steps)
        let baked = fold_preset_maps
        for k in 0..<Int(baked.preset_count) where baked.steps[k] == code {
            let mapping = baked.mapping_maps[k]
            return (Map(raw: baked.maps[Int(baked.decomposition_maps[k])]), mapping < 0 ? nil : Map(raw: baked.maps[Int(mapping)]))
        }
        return nil
    }

    /// The steps as one number (the generated file's `steps`): a bit for each step, the
    /// tailoring from bit 12.
    static func stepsCode(_ steps: FoldProfile.Steps) -> UInt32 {
        let flags = [steps.decomposition == .compatibility, steps.foldsCase, steps.removesDefaultIgnorables, steps.removesMarks,
                     steps.foldsLetters, steps.foldsPunctuation, steps.collapsesWhitespace, steps.foldsKana,
                     steps.transliteratesToASCII, steps.composes]
        var code: UInt32 = 0
        for (bit, on) in flags.enumerated() where on { code |= 1 << UInt32(bit) }
        let tailoring: UInt32
        switch steps.tailoring {
        case .none: tailoring = 0
        case .turkic: tailoring = 1
        case .german: tailoring = 2
        case .nordic: tailoring = 3
        case .icelandic: tailoring = 4
        }
        return code | tailoring << 12
    }

    /// Appends the values of the 256 code points of page `page` (surrogates map to themselves)
    /// to `data`, and after each the count so far to `offsets`: a ScalarTable page, laid out
    /// from `map` (a cursor into it and into its base), or the default where neither lists one.
    /// `compatibility` is the default's decomposition kind (nil: the default is the code point
    /// itself).
    static func appendPage(_ page: Int, _ map: Map, compatibility: Bool?, data: inout [UInt32], offsets: inout [UInt32]) {
        let first = UInt32(page << 8)
        var maps: [(map: Map, next: Int)] = []
        var current: Map? = map
        while let m = current {
            maps.append((m, m.lowerBound(first)))
            current = m.base
        }
        for value in first..<first + 256 {
            var found = false
            for k in maps.indices {
                let (m, next) = maps[k]
                guard next < Int(m.raw.count) && m.raw.keys[next] == value else { continue }
                maps[k].next = next + 1
                if !found { data.append(contentsOf: m.value(at: next)) }
                found = true
            }
            if !found {
                if value &- 0xD800 < 0x800 {
                    data.append(value)
                } else if let compatibility {
                    UnicodeData.appendDecomposition(of: value, compatibility: compatibility, to: &data)
                } else {
                    data.append(value)
                }
            }
            offsets.append(UInt32(data.count))
        }
    }
}

#if !hasFeature(Embedded)
// MARK: Generating, for `make generate`

extension PresetMaps {
    /// The profiles whose maps are generated, in the file's order.
    package static var bakedProfiles: [FoldProfile] { FoldProfile.presets + FoldProfile.tailoredPresets }

    /// Step 1 of `steps` for every code point, from the pipeline (never the generated file).
    package static func computedDecompositions(_ steps: FoldProfile.Steps) -> [UInt32: [UInt32]] {
        let pipeline = ScalarPipeline(steps: steps)
        var map: [UInt32: [UInt32]] = [:]
        for value: UInt32 in 0..<0x110000 where !(0xD800...0xDFFF).contains(value) {
            let decomposed = pipeline.decompose(value)
            if decomposed != UnicodeData.decomposition(of: value, compatibility: steps.decomposition == .compatibility) {
                map[value] = decomposed
            }
        }
        return map
    }

    /// Steps 2 to 7 of `steps` for every code point, from the pipeline; nil when the profile maps
    /// nothing.
    package static func computedMappings(_ steps: FoldProfile.Steps) -> [UInt32: [UInt32]]? {
        guard steps.mapsScalars else { return nil }
        let pipeline = ScalarPipeline(steps: steps)
        var map: [UInt32: [UInt32]] = [:]
        for value: UInt32 in 0..<0x110000 where !(0xD800...0xDFFF).contains(value) {
            if ScalarPipeline.noMappingTouches(value, steps) { continue }
            let mapped = pipeline.map(value)
            if mapped != [value] { map[value] = mapped }
        }
        return map
    }

    /// CFoldUnicodeData's preset_maps.c: every baked profile's two maps, computed now by the
    /// pipeline. Equal maps are written once; a tailored preset's map lists only what differs
    /// from the search profile's map of the same kind, when that is shorter.
    package static var file: String {
        struct Entry { var keys: [UInt32]; var values: [[UInt32]]; var base: Int32 }
        var maps: [Entry] = []
        var decompositionMaps: [Int32] = [], mappingMaps: [Int32] = []
        func entry(_ map: [UInt32: [UInt32]]) -> Entry {
            let keys = map.keys.sorted()
            return Entry(keys: keys, values: keys.map { map[$0]! }, base: -1)
        }
        /// The map's index, written once; against `base` (an index and its full map) when shorter.
        func add(_ map: [UInt32: [UInt32]], base: (Int32, [UInt32: [UInt32]])?, defaultOf: (UInt32) -> [UInt32]) -> Int32 {
            var candidate = entry(map)
            if let (baseIndex, baseMap) = base {
                var diff: [UInt32: [UInt32]] = [:]
                for key in Set(map.keys).union(baseMap.keys) {
                    let mine = map[key] ?? defaultOf(key), theirs = baseMap[key] ?? defaultOf(key)
                    if mine != theirs { diff[key] = mine }
                }
                if diff.count < map.count {
                    candidate = entry(diff)
                    candidate.base = baseIndex
                }
            }
            if let same = maps.firstIndex(where: { $0.keys == candidate.keys && $0.values == candidate.values && $0.base == candidate.base }) {
                return Int32(same)
            }
            maps.append(candidate)
            return Int32(maps.count - 1)
        }
        let search = FoldProfile.search.steps
        let searchDecompositions = computedDecompositions(search), searchMappings = computedMappings(search)!
        let searchDecompositionIndex = add(searchDecompositions, base: nil) { UnicodeData.decomposition(of: $0, compatibility: true) }
        let searchMappingIndex = add(searchMappings, base: nil) { [$0] }
        for profile in bakedProfiles {
            let steps = profile.steps
            let tailored = steps.tailoring != .none && steps.decomposition == search.decomposition
            let compatibility = steps.decomposition == .compatibility
            decompositionMaps.append(add(computedDecompositions(steps), base: tailored ? (searchDecompositionIndex, searchDecompositions) : nil) {
                UnicodeData.decomposition(of: $0, compatibility: compatibility)
            })
            if let mappings = computedMappings(steps) {
                mappingMaps.append(add(mappings, base: tailored ? (searchMappingIndex, searchMappings) : nil) { [$0] })
            } else {
                mappingMaps.append(-1)
            }
        }
        func rows<T: BinaryInteger>(_ values: [T], hex: Bool = false) -> String {
            guard !values.isEmpty else { return "    0," }
            return stride(from: 0, to: values.count, by: 16).map { start in
                "   " + values[start..<min(start + 16, values.count)].map { hex ? " 0x\(String($0, radix: 16, uppercase: true))," : " \($0)," }.joined()
            }.joined(separator: "\n")
        }
        var text = """
            // Generated by `make generate` (Sources/fold-generate) from Fold's Unicode data (ICU \(FoldVersions.icu),
            // Unicode \(FoldVersions.unicode), CLDR \(FoldVersions.cldr)) and Fold's steps (ScalarPipeline): steps 1 to 7
            // of every preset profile, for every code point. Do not edit.
            #include "CFoldUnicodeData.h"


            """
        for (k, map) in maps.enumerated() {
            var offsets: [UInt32] = [0], data: [UInt32] = []
            for value in map.values {
                data += value
                offsets.append(UInt32(data.count))
            }
            precondition(data.count <= Int(UInt16.max), "a preset map's data outgrew its 16-bit offsets")
            text += """
                static const uint32_t keys\(k)[\(max(map.keys.count, 1))] = {
                \(rows(map.keys, hex: true))
                };
                static const uint16_t offsets\(k)[\(offsets.count)] = {
                \(rows(offsets))
                };
                static const uint32_t data\(k)[\(max(data.count, 1))] = {
                \(rows(data, hex: true))
                };


                """
        }
        let profiles = bakedProfiles
        text += """
            static const FoldPresetMap maps[\(maps.count)] = {
            \(maps.indices.map { "    {keys\($0), offsets\($0), data\($0), \(maps[$0].keys.count), \(maps[$0].base)}," }.joined(separator: "\n"))
            };

            static const int32_t decomposition_maps[\(profiles.count)] = {\(decompositionMaps.map { "\($0)" }.joined(separator: ", "))};
            static const int32_t mapping_maps[\(profiles.count)] = {\(mappingMaps.map { "\($0)" }.joined(separator: ", "))};
            static const char *const names[\(profiles.count)] = {\(profiles.map { "\"\($0.name)\"" }.joined(separator: ", "))};
            static const uint32_t steps[\(profiles.count)] = {\(profiles.map { "0x\(String(stepsCode($0.steps), radix: 16, uppercase: true))" }.joined(separator: ", "))};

            const FoldPresetMaps fold_preset_maps = {maps, \(maps.count), decomposition_maps, mapping_maps, names, steps, \(profiles.count)};

            """
        return text
    }
}
#endif

@testable import Fold
import Testing

/// Folders shared by many tasks: results identical to serial folding. Run under
/// `swift test --sanitize=thread --filter ConcurrencyTests` (make tsan) to check for races,
/// including the lock-free publication of lazily built table pages.
@Suite struct ConcurrencyTests {
    @Test func sharedFolderGivesSerialResults() async throws {
        // A profile no other test uses, so its tables are built while the tasks race.
        var profile = FoldProfile.search
        profile.name = "concurrency"
        profile.collapsesWhitespace = false
        profile.foldsPunctuation = false
        let folder = Folder(profile)
        var rng = seededGenerator(0xC0C0)
        let inputs = (0..<4_000).map { _ in randomString(&rng, maxPieces: 16) }
            + (0..<200).map { String(Unicode.Scalar(UInt32(0x3400 + $0 * 97))!) }
        let results = try await withThrowingTaskGroup(of: [String].self) { group in
            for _ in 0..<8 {
                group.addTask {
                    try inputs.map { folder.fold($0) } + inputs.map { String(decoding: try folder.fold(utf8: Array($0.utf8)), as: UTF8.self) }
                }
            }
            var all: [[String]] = []
            for try await r in group { all.append(r) }
            return all
        }
        let serial = inputs.map { folder.fold($0) }
        for r in results {
            #expect(Array(r.prefix(inputs.count)) == serial)
            #expect(Array(r.suffix(inputs.count)) == serial)
        }
        #expect(serial == inputs.map { folder.generalFold($0) })
    }

    @Test func foldersBuiltConcurrentlyShareOneEngine() async throws {
        let engines = await withTaskGroup(of: ObjectIdentifier.self) { group in
            for _ in 0..<8 { group.addTask { ObjectIdentifier(Folder(.ascii).engine) } }
            var ids = Set<ObjectIdentifier>()
            for await id in group { ids.insert(id) }
            return ids
        }
        #expect(engines.count == 1)
    }

    @Test func matchersAndOffsetsConcurrently() async throws {
        let folder = Folder(.search)
        let texts = ["Crème brûlée", "Smørrebrød", "Ελληνικά", "がっこう", "Straße"]
        let counts = await withTaskGroup(of: Int.self) { group in
            for k in 0..<8 {
                group.addTask {
                    let m = Matcher(["creme", "smor", "ελλ", "が", "ss"][k % 5], folder: folder)
                    return (0..<500).reduce(0) { acc, _ in acc + texts.reduce(0) { $0 + m.matches(in: $1).count } }
                }
            }
            var all: [Int] = []
            for await c in group { all.append(c) }
            return all
        }
        #expect(counts.allSatisfy { $0 == 500 })
    }
}

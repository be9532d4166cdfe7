// How the documentation snippets are found and checked (DocumentationSnippetTests.swift runs them).
import Foundation
@testable import Fold
import Testing

// MARK: - The check

/// One ```swift block of a document.
struct Snippet {
    var file: String
    /// The line of its opening fence.
    var line: Int
    var lines: [String]

    /// A block whose first line is `// Package.swift` is an excerpt of a package manifest: not
    /// code a test can run (it is checked for the product names it uses instead).
    var isManifest: Bool { lines.first?.trimmingCharacters(in: .whitespaces) == "// Package.swift" }
}

/// Reads the documents' Swift snippets and the test files' regions, and says whether each
/// snippet is tested:
///
/// - each line of code (its trailing `//` comment removed, its runs of white space made one
///   space; blank lines, full-line comments and `import` lines left out) must appear, in order,
///   inside the lines of one region of a snippet test file, each in a line of its own; the
///   region may have lines of its own between them (an `#expect`, a definition the snippet
///   assumes);
/// - a line whose comment states a result (it starts with `"`, `[`, `(`, `.`, a digit, `-`,
///   `true`, `false`, `nil` or `Array(`) must be followed, before the next line of the snippet,
///   by an `#expect` or `#require` that contains the stated value (the comment up to its first
///   `:` or space outside quotes and brackets: `// 4..<6: "ß" for one "s"` states `4..<6`);
/// - each `import X` of the snippet must be in the region's file;
/// - a manifest excerpt's products must be products of `Package.swift` or
///   `Integrations/Package.swift`.
struct SnippetCheck {
    struct Region {
        var file: String
        var lines: [String]
        var imports: Set<String>
    }

    let root: String
    let regions: [Region]
    let products: Set<String>

    init(root: String) throws {
        self.root = root
        var regions: [Region] = []
        for file in snippetTestFiles {
            let lines = try readText(root + "/" + file).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            let normalizedLines = lines.map { Self.split($0).code }
            let imports = Set(normalizedLines.compactMap { line -> String? in
                guard let r = line.range(of: "import ", options: .backwards), line.hasPrefix("import ") || line[..<r.lowerBound].hasSuffix(" ") else { return nil }
                return String(line[r.upperBound...])
            })
            var current: [String]? = nil
            for line in lines {
                let t = line.trimmingCharacters(in: .whitespaces)
                if t == "// --- end ---" {
                    if let body = current { regions.append(Region(file: file, lines: body, imports: imports)) }
                    current = nil
                } else if t.hasPrefix("// --- ") && t.hasSuffix(" ---") {
                    current = []
                } else if current != nil {
                    current!.append(line)
                }
            }
        }
        self.regions = regions
        var products: Set<String> = []
        for manifest in ["Package.swift", "Integrations/Package.swift"] {
            let text = try readText(root + "/" + manifest)
            for match in text.matches(of: /\.(?:library|executable)\(\s*name:\s*"([^"]+)"/) { products.insert(String(match.1)) }
        }
        self.products = products
    }

    /// The documents: README.md and every Markdown file of a DocC catalog under Sources/.
    func documents() throws -> [String] {
        var files = ["README.md"]
        let sources = root + "/Sources"
        for module in try FileManager.default.contentsOfDirectory(atPath: sources).sorted() {
            for entry in (try? FileManager.default.contentsOfDirectory(atPath: sources + "/" + module)) ?? [] where entry.hasSuffix(".docc") {
                let catalog = "Sources/\(module)/\(entry)"
                let enumerator = FileManager.default.enumerator(atPath: root + "/" + catalog)
                while let path = enumerator?.nextObject() as? String {
                    if path.hasSuffix(".md") { files.append(catalog + "/" + path) }
                }
            }
        }
        return files.sorted()
    }

    func documentSnippets() throws -> [Snippet] {
        var snippets: [Snippet] = []
        for file in try documents() {
            let lines = try readText(root + "/" + file).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            var open: Snippet? = nil
            for (n, line) in lines.enumerated() {
                let t = line.trimmingCharacters(in: .whitespaces)
                if open == nil {
                    if t == "```swift" { open = Snippet(file: file, line: n + 1, lines: []) }
                } else if t == "```" {
                    snippets.append(open!)
                    open = nil
                } else {
                    open!.lines.append(line)
                }
            }
            if let open { snippets.append(open) }   // unclosed: checked like the others
        }
        return snippets
    }

    /// What is wrong with a snippet, or nil when a region tests it.
    func problem(with snippet: Snippet) -> String? {
        if snippet.isManifest {
            let named = snippet.lines.joined(separator: "\n").matches(of: /\.product\(\s*name:\s*"([^"]+)"/).map { String($0.1) }
            let unknown = named.filter { !products.contains($0) }
            return unknown.isEmpty ? nil : "the manifest excerpt names products the packages do not have: \(unknown)"
        }
        var needles: [(code: String, stated: String?)] = []
        var imports: [String] = []
        for line in snippet.lines {
            let (code, comment) = Self.split(line)
            if code.isEmpty { continue }
            if code.hasPrefix("import ") { imports.append(String(code.dropFirst(7))); continue }
            needles.append((code, comment.flatMap(Self.statedValue)))
        }
        var closest = (matched: -1, file: "", missing: needles.first?.code ?? "")
        for region in regions {
            let lines = region.lines.map { Self.split($0).code }
            var at = 0
            var matchedAt: [Int] = []
            for needle in needles {
                guard let k = lines[at...].firstIndex(where: { $0.contains(needle.code) }) else { break }
                matchedAt.append(k)
                at = k + 1
            }
            guard matchedAt.count == needles.count else {
                if matchedAt.count > closest.matched { closest = (matchedAt.count, region.file, needles[matchedAt.count].code) }
                continue
            }
            // Stated results: an #expect or #require with the value, before the next line matched.
            var unchecked: String? = nil
            for (i, needle) in needles.enumerated() {
                guard let value = needle.stated else { continue }
                let end = i + 1 < matchedAt.count ? matchedAt[i + 1] : lines.count
                let checked = lines[matchedAt[i]..<end].contains { ($0.contains("#expect") || $0.contains("#require")) && $0.contains(value) }
                if !checked { unchecked = "`\(needle.code)` states \(value), which no #expect after it checks (\(region.file))"; break }
            }
            if let unchecked {
                if needles.count > closest.matched { closest = (needles.count, region.file, unchecked) }
                continue
            }
            if let missing = imports.first(where: { !region.imports.contains($0) }) {
                return "the snippet imports \(missing); its region in \(region.file) does not"
            }
            return nil
        }
        if closest.matched == needles.count { return closest.missing }
        return "no snippet test region has this snippet: `\(closest.missing)` is missing"
            + (closest.matched > 0 ? " (the closest region, in \(closest.file), has its first \(closest.matched) lines)" : "")
    }

    /// A line's code without its trailing `//` comment (outside string literals), its runs of
    /// white space made one space; and the comment.
    static func split(_ line: String) -> (code: String, comment: String?) {
        var inString = false
        var escaped = false
        var previous: Character = " "
        var cut: String.Index? = nil
        for i in line.indices {
            let c = line[i]
            if inString {
                if escaped { escaped = false } else if c == "\\" { escaped = true } else if c == "\"" { inString = false }
            } else if c == "\"" {
                inString = true
            } else if c == "/" && previous == "/" {
                cut = line.index(before: i)
                break
            }
            previous = c
        }
        let code = cut.map { String(line[..<$0]) } ?? line
        let comment = cut.map { String(line[line.index($0, offsetBy: 2)...]).trimmingCharacters(in: .whitespaces) }
        return (code.split(whereSeparator: \.isWhitespace).joined(separator: " "), comment)
    }

    /// The value a result comment states, or nil when the comment states none.
    static func statedValue(_ comment: String) -> String? {
        guard let first = comment.first,
              "\"[(.-0123456789".contains(first) || ["true", "false", "nil", "Array("].contains(where: comment.hasPrefix) else { return nil }
        var depth = 0
        var inString = false
        var escaped = false
        var end = comment.endIndex
        for i in comment.indices {
            let c = comment[i]
            if inString {
                if escaped { escaped = false } else if c == "\\" { escaped = true } else if c == "\"" { inString = false }
                continue
            }
            switch c {
            case "\"": inString = true
            case "[", "(", "{": depth += 1
            case "]", ")", "}": depth -= 1
            case ":" where depth == 0, " " where depth == 0 && i != comment.startIndex:
                end = i
            default: break
            }
            if end != comment.endIndex { break }
        }
        return String(comment[..<end]).split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}

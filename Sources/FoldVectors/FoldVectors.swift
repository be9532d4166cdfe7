// Test vectors: the line format of TestVectors/*.tsv, read by the tests and by
// `foldcheck vectors`. See TestVectors/README.md for the format.
import Fold

/// One vector: the fold of `input` by `profile` must be `expected`.
public struct FoldVector: Sendable, Hashable {
    public var profile: String
    public var input: String
    public var expected: String
    public var note: String
    /// Where the vector was read from, for messages: `search.tsv:12`.
    public var location: String
}

/// A line that is not a valid vector.
public struct VectorFormatError: Error, CustomStringConvertible, Sendable {
    public var location: String
    public var message: String
    public var description: String { "\(location): \(message)" }
}

public enum VectorFile {
    /// Parses a vector file's text. `name` is used in locations.
    public static func parse(_ text: String, name: String) throws(VectorFormatError) -> [FoldVector] {
        var vectors: [FoldVector] = []
        var lineNumber = 0
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            var line = Substring(rawLine)
            if line.hasSuffix("\r") { line = line.dropLast() }
            if line.isEmpty || line.hasPrefix("#") { continue }
            let location = "\(name):\(lineNumber)"
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count == 3 || fields.count == 4 else {
                throw VectorFormatError(location: location, message: "expected 3 or 4 tab-separated fields (profile, input, expected, note), found \(fields.count)")
            }
            guard FoldProfile(named: String(fields[0])) != nil else {
                throw VectorFormatError(location: location, message: "unknown profile '\(fields[0])'")
            }
            let input = try unescape(fields[1], location: location)
            let expected = try unescape(fields[2], location: location)
            guard !input.isEmpty else { throw VectorFormatError(location: location, message: "empty input") }
            vectors.append(FoldVector(profile: String(fields[0]), input: input, expected: expected,
                                      note: fields.count == 4 ? String(fields[3]) : "", location: location))
        }
        return vectors
    }

    /// Decodes `\u{XXXX}`, `\\` and `\t` escapes.
    public static func unescape(_ field: Substring, location: String) throws(VectorFormatError) -> String {
        var result = String.UnicodeScalarView()
        var scalars = field.unicodeScalars.makeIterator()
        while let c = scalars.next() {
            guard c == "\\" else { result.append(c); continue }
            switch scalars.next() {
            case "\\": result.append("\\")
            case "t": result.append("\t")
            case "u":
                guard scalars.next() == "{" else { throw VectorFormatError(location: location, message: "expected { after \\u") }
                var digits = ""
                while let d = scalars.next(), d != "}" { digits.unicodeScalars.append(d) }
                guard (1...6).contains(digits.count), let value = UInt32(digits, radix: 16),
                      let scalar = Unicode.Scalar(value)
                else { throw VectorFormatError(location: location, message: "bad escape \\u{\(digits)}") }
                result.append(scalar)
            default:
                throw VectorFormatError(location: location, message: "unknown escape (use \\u{...}, \\\\ or \\t)")
            }
        }
        return String(result)
    }

    /// Writes text with every non-ASCII or invisible code point as `\u{...}`, for messages.
    public static func escape(_ text: String) -> String {
        var out = ""
        for s in text.unicodeScalars {
            if s == "\\" { out += "\\\\" } else if s.value >= 0x21 && s.value < 0x7F || s == " " {
                out.unicodeScalars.append(s)
            } else {
                out += "\\u{" + String(s.value, radix: 16, uppercase: true) + "}"
            }
        }
        return out
    }

    /// The code points of a text, as `U+0063 U+0301`.
    public static func codePoints(_ text: String) -> String {
        text.unicodeScalars.map { codePointName($0.value) }.joined(separator: " ")
    }
}

/// The outcome of running one vector.
public struct VectorOutcome: Sendable {
    public var vector: FoldVector
    public var got: String
    public var passed: Bool { got == vector.expected }
}

public enum VectorRunner {
    /// Folds each vector's input with its profile's folder.
    public static func run(_ vectors: [FoldVector]) throws -> [VectorOutcome] {
        var folders: [String: Folder] = [:]
        var outcomes: [VectorOutcome] = []
        for v in vectors {
            let folder: Folder
            if let f = folders[v.profile] {
                folder = f
            } else {
                guard let profile = FoldProfile(named: v.profile) else {
                    throw VectorFormatError(location: v.location, message: "unknown profile '\(v.profile)'")
                }
                folder = Folder(profile)
                folders[v.profile] = folder
            }
            outcomes.append(VectorOutcome(vector: v, got: folder.fold(v.input)))
        }
        return outcomes
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Fold

/// The table that `foldcheck explain` prints.
enum ExplainTable {
    static func code(_ s: Unicode.Scalar) -> String { codePointName(s.value) }

    static func show(_ scalars: [Unicode.Scalar]) -> String {
        if scalars.isEmpty { return "(nothing)" }
        let visible = scalars.map { s -> String in
            s.properties.generalCategory == .nonspacingMark || s.properties.generalCategory == .enclosingMark
                ? "◌" + String(s) : (s.value < 0x20 || s.value == 0x7F ? "" : String(s))
        }.joined()
        return "\"\(visible)\" " + scalars.map(code).joined(separator: " ")
    }

    static func render(_ e: FoldExplanation) -> String {
        var lines: [String] = []
        lines.append("profile: \(e.profile)")
        lines.append("")
        for row in e.rows {
            lines.append("\(code(row.scalar))  \(row.category)  \(row.name)")
            if row.steps.isEmpty {
                lines.append("    unchanged")
            }
            for step in row.steps {
                lines.append("    \(step.step): \(show(step.before)) → \(show(step.after))")
                for note in step.notes { lines.append("        \(note)") }
            }
            lines.append("    gives: \(show(row.output))")
        }
        lines.append("")
        lines.append("output: \(show(Array(e.output.unicodeScalars)))")
        return lines.joined(separator: "\n") + "\n"
    }
}

/// Reads a whole file, or nil.
func readFile(_ path: String) -> String? {
    var bytes: [UInt8] = []
    guard let file = fopen(path, "rb") else { return nil }
    defer { fclose(file) }
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let n = fread(&buffer, 1, buffer.count, file)
        if n > 0 { bytes += buffer[0..<n] }
        if n < buffer.count {
            if ferror(file) != 0 { return nil }
            break
        }
    }
    return String(decoding: bytes, as: UTF8.self)
}

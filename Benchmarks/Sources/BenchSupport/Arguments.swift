import Foundation

/// A benchmark tool's command line, read flag by flag: a flag it does not know, a missing value
/// or a value that is not what the flag needs prints the problem and the tool's usage and exits 2;
/// `-h` and `--help` print the usage.
public struct BenchArguments {
    let tool: String
    let usage: String
    var rest: ArraySlice<String>

    /// `usage`: the whole usage text, ending with a newline.
    public init(tool: String, usage: String) {
        self.tool = tool
        self.usage = usage
        rest = CommandLine.arguments.dropFirst()
    }

    /// The next flag, or nil at the end.
    public mutating func nextFlag() -> String? {
        guard let flag = rest.popFirst() else { return nil }
        if flag == "-h" || flag == "--help" { fail() }
        return flag
    }

    /// The value after `flag`.
    public mutating func value(of flag: String) -> String {
        guard let value = rest.popFirst() else { fail("\(flag) needs a value") }
        return value
    }

    /// The positive whole number after `flag`.
    public mutating func count(of flag: String) -> Int {
        let text = value(of: flag)
        guard let n = Int(text), n > 0 else { fail("\(flag) needs a positive whole number, not \(text)") }
        return n
    }

    /// The whole number from 0 after `flag`.
    public mutating func unsigned(of flag: String) -> UInt64 {
        let text = value(of: flag)
        guard let n = UInt64(text) else { fail("\(flag) needs a whole number from 0, not \(text)") }
        return n
    }

    /// Prints `problem` (when there is one) and the usage, and exits 2.
    public func fail(_ problem: String? = nil) -> Never {
        FileHandle.standardError.write(Data(((problem.map { "\(tool): \($0)\n" } ?? "") + usage).utf8))
        exit(2)
    }
}

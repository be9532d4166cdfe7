/// Exit codes, from sysexits.h.
enum Exit {
    static let ok: Int32 = 0
    static let failures: Int32 = 1     // a vector failed, or find matched no line
    static let usage: Int32 = 64       // EX_USAGE
    static let dataError: Int32 = 65   // EX_DATAERR: invalid UTF-8, a line over --max-line-bytes
    static let noInput: Int32 = 66     // EX_NOINPUT: a vector file or an input FILE cannot be read
    static let software: Int32 = 70    // EX_SOFTWARE: ICU failed
    static let ioError: Int32 = 74     // EX_IOERR: reading input or writing stdout failed
}

/// An error that ends the run with a message on stderr and an exit code.
struct Failure: Error {
    var message: String
    var code: Int32
}

// Naming rule: `ICU.x` wraps `cfold_x`, which wraps the ICU function named in CFoldICU.h. The
// files of this folder are the only ones that import CFoldICU; no ICU type or pointer leaves them.
internal import CFoldICU

/// An error that ICU reported.
///
/// The corresponding C type is ICU's `UErrorCode`; ``name`` is what `u_errorName` gives for it.
///
/// ```swift
/// do { _ = try ICU.normalize(.nfc, utf8: [0xFF]) } catch { print(error.name) }
/// ```
public struct ICUError: Error, Sendable, Hashable, CustomStringConvertible {
    /// ICU's `UErrorCode` value.
    public let code: Int32
    /// ICU's name for the code, for example `U_MEMORY_ALLOCATION_ERROR`.
    public let name: String

    package init(code: Int32) {
        self.code = code
        self.name = String(cString: cfold_error_name(code))
    }

    /// The name and the code, for example `ICU error U_MEMORY_ALLOCATION_ERROR (7)`.
    public var description: String { "ICU error \(name) (\(code))" }

    /// `U_MEMORY_ALLOCATION_ERROR`: ICU could not allocate memory (or gave no buffer).
    static let memoryAllocation: Int32 = 7
    /// `U_INDEX_OUTOFBOUNDS_ERROR`: an input longer than ICU's 32-bit lengths allow.
    static let indexOutOfBounds: Int32 = 8
    /// `U_BUFFER_OVERFLOW_ERROR`: a result still larger than the length ICU reported.
    static let bufferOverflow: Int32 = 15
}

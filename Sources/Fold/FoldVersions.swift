/// The versions of Unicode and ICU that Fold runs with.
///
/// ```swift
/// FoldVersions.unicode   // "15.0"
/// FoldVersions.icu       // "72.1"
/// ```
public enum FoldVersions {
    /// The Unicode version of the linked ICU's data, as "major.minor".
    public static var unicode: String { "\(ICU.unicodeVersion[0]).\(ICU.unicodeVersion[1])" }
    /// The linked ICU's version, as "major.minor".
    public static var icu: String { "\(ICU.icuVersion[0]).\(ICU.icuVersion[1])" }
    /// Fold's table version: bumped when a policy decision changes.
    public static var table: Int { ScalarPolicy.tableVersion }
}

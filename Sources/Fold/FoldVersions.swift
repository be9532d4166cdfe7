/// The versions of the data Fold folds with: its generated tables' Unicode and CLDR versions,
/// the ICU they were generated from, and Fold's own table version. They are the same on every
/// machine for one Fold release: Fold reads no ICU at run time.
///
/// ```swift
/// FoldVersions.unicode   // "15.0"
/// FoldVersions.cldr      // "42.0"
/// ```
public enum FoldVersions {
    /// The Unicode version of Fold's tables, as "major.minor".
    public static var unicode: String { "\(UnicodeData.unicodeVersion[0]).\(UnicodeData.unicodeVersion[1])" }
    /// The CLDR version of Fold's Latin-ASCII data, as "major.minor".
    public static var cldr: String { "\(UnicodeData.cldrVersion[0]).\(UnicodeData.cldrVersion[1])" }
    /// The version of the ICU that Fold's tables were generated from (by `make generate`), as
    /// "major.minor". Fold does not link ICU: this is a fact about the data, not the machine.
    public static var icu: String { "\(UnicodeData.icuVersion[0]).\(UnicodeData.icuVersion[1])" }
    /// Fold's table version: bumped when a policy decision changes.
    public static var table: Int { ScalarPolicy.tableVersion }
}

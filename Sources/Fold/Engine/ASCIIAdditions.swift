/// One of Fold's ASCII additions: what a code point folds to in the `ascii` profile when CLDR's
/// Latin-ASCII leaves it alone, and the rule that derived it from the character's name and
/// properties in ICU.
package struct ASCIIAddition: Equatable, Sendable {
    package let fold: [UInt32]
    /// The rule and the part of the name it read, for review and for `foldcheck explain`:
    /// "letter: TURNED E", "number: NEGATIVE CIRCLED NUMBER ELEVEN = 11", ...
    package let rule: String

    package init(_ fold: [UInt32], _ rule: String) {
        self.fold = fold
        self.rule = rule
    }
}

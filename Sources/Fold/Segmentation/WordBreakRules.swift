/// Fold's word-boundary rules, each written once beside its UAX #29 number: what the state
/// machine (``WordBreaker/nextWord(in:from:table:)``) applies unit by unit, and what
/// ``WindowClasses`` derives the 64-byte windows' byte sets from. The data they read is
/// ``WordBreakTable``: change a code point's class there, or a rule here, and every path follows
/// (the windows' compiled sets through `make generate`; a test fails until they are regenerated).
///
/// UAX #29's rules that Fold's decisions take out: WB7a and WB13 (the apostrophe always splits;
/// kana are words of one character, as ideographs are), WB15/16 (regional indicators are in no
/// word). WB3 to WB4 (line breaks, marks) are the units' business (``WordBreaker/unit(_:_:_:_:)``).
enum WordBreakRules {
    typealias Class = WordBreakTable.Class

    /// UAX #29's AHLetter: ALetter or Hebrew_Letter.
    @inline(__always)
    static func isLetter(_ c: Class) -> Bool { c == .letter || c == .hebrewLetter }

    /// Whether a run of units of these classes stays one word: WB5 (letter letter), WB8 (digit
    /// digit), WB9 (letter digit), WB10 (digit letter), WB13a and WB13b (ExtendNumLet with any
    /// of them). Hangul syllables join only each other (ICU's root rules), ideographs nothing.
    @inline(__always)
    static func continuesRun(_ c: Class) -> Bool {
        isLetter(c) || c == .numeric || c == .extendNumLet
    }

    /// Whether a run holds a word: Fold's decision that a word holds at least one letter or
    /// digit (`__` alone is no word).
    @inline(__always)
    static func makesWord(_ c: Class) -> Bool { isLetter(c) || c == .numeric }

    /// Whether `middle` joins the units on either side into one word: WB6/WB7 (MidLetter and
    /// MidNumLet between two letters), WB7b/WB7c (Double_Quote between two Hebrew letters),
    /// WB11/WB12 (MidNum and MidNumLet between two digits). The period is MidNumLet: "e.g" and
    /// "3.14" are one word each, "a.1" is two.
    @inline(__always)
    static func joins(_ middle: Class, after left: Class, before right: Class) -> Bool {
        switch middle {
        case .midLetter: return isLetter(left) && isLetter(right)
        case .midNumLet: return (isLetter(left) && isLetter(right)) || (left == .numeric && right == .numeric)
        case .midNum: return left == .numeric && right == .numeric
        case .doubleQuote: return left == .hebrewLetter && right == .hebrewLetter
        default: return false
        }
    }

    /// The classes ``joins(_:after:before:)`` lets join anything: what the state machine looks
    /// past for the unit after (a test holds it to ``mayJoin(_:)``).
    @inline(__always)
    static func isJoiner(_ c: Class) -> Bool {
        switch c {
        case .midLetter, .midNumLet, .midNum, .doubleQuote: return true
        default: return false
        }
    }

    /// Whether `middle` joins some two units (``joins(_:after:before:)`` for some neighbours).
    static func mayJoin(_ middle: Class) -> Bool {
        let sides: [Class] = [.letter, .hebrewLetter, .numeric]
        return sides.contains { left in sides.contains { right in joins(middle, after: left, before: right) } }
    }
}

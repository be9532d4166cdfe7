/// How long a ``LiveSearch`` waits after a keystroke before it searches, by the length of the
/// query: short queries match too much to be worth searching while the user is still typing,
/// long ones are selective and answer at once. The wait is a trailing edge: each keystroke
/// starts it again. An empty query clears the results at once.
///
/// The default waits 250 ms for one or two characters and 50 ms from three on (search boxes in
/// the articles this follows wait 0.5 s under four characters and none after; fzf does not wait).
///
/// ```swift
/// let patient = QuietPeriod(delays: [.milliseconds(400), .milliseconds(400), .milliseconds(100)])
/// patient.delay(forLength: 5)   // .milliseconds(100): the last entry covers longer queries
/// ```
public struct QuietPeriod: Sendable, Hashable {
    /// The wait for a query of 1, 2, 3 ... characters; the last entry holds for longer ones.
    public var delays: [Duration]

    /// A policy from its delays (an empty list never waits).
    ///
    /// ```swift
    /// QuietPeriod(delays: [.zero])   // never waits
    /// ```
    public init(delays: [Duration]) {
        self.delays = delays
    }

    /// 250 ms for one or two characters, 50 ms from three on.
    public static let `default` = QuietPeriod(delays: [.milliseconds(250), .milliseconds(250), .milliseconds(50)])

    /// Never waits: every keystroke searches at once (the superseded search is cancelled).
    public static let none = QuietPeriod(delays: [])

    /// The wait before searching a query of `length` characters (0 for an empty query).
    ///
    /// ```swift
    /// QuietPeriod.default.delay(forLength: 1)   // .milliseconds(250)
    /// ```
    public func delay(forLength length: Int) -> Duration {
        guard length > 0, let last = delays.last else { return .zero }
        return length <= delays.count ? delays[length - 1] : last
    }
}

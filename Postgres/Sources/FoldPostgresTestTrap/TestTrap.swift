// For the tests only: linked into the test build of the module (libFoldPostgresTestModule.so),
// never into the installed fold.so.
#if canImport(Glibc)
import Glibc
#endif

/// A trap inside Swift, as a failed check in the library would be, under a Swift frame that
/// holds an object (so the trap leaves Swift state behind, as a real one would). The module's C
/// turns it into an ERROR and disables Fold in that session (fold.c, "Traps").
@_cdecl("foldpg_test_trap")
public func foldpgTestTrap() {
    let held = [Int](repeating: Int(getpid()), count: 4)
    let limit = held[0] >= 0 ? 1 : 2   // not constant, so the optimizer keeps the check
    precondition(limit == 2, "fold: the test trap")
    print(held)
}

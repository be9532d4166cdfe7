// swift-tools-version:6.0
//
// Fold's libFuzzer harnesses: a separate package, so that users of the library never build them.
// Build and run from this directory with ./run.sh SECONDS (see README.md). The fuzzer and
// AddressSanitizer flags are passed on the command line, not here:
//   swift build -c release --sanitize=fuzzer --sanitize=address \
//       -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library
import PackageDescription

// The Fold package under test: the one directory up. FOLD_FUZZ_ROOT points at another checkout
// (for example a `git archive` snapshot of a commit, while the work tree is being edited).
let foldRoot = Context.environment["FOLD_FUZZ_ROOT"] ?? ".."

let package = Package(
    name: "fold-fuzz",
    products: [
        .executable(name: "FoldFuzz", targets: ["FoldFuzz"]),
        .executable(name: "DifferentialFuzz", targets: ["DifferentialFuzz"]),
    ],
    dependencies: [
        // The library under test: the package one directory up (or FOLD_FUZZ_ROOT).
        .package(name: "Fold", path: foldRoot),
    ],
    targets: [
        // ICU for the independent oracle only. Swift never imports this module: ICU's C types
        // would collide with the private ICU that Foundation carries on Linux.
        .systemLibrary(
            name: "CFuzzICU",
            path: "Sources/CFuzzICU",
            pkgConfig: "icu-i18n",
            providers: [.apt(["libicu-dev"])]
        ),
        // The oracle: ICU's Normalizer2 called directly, in C++. Its header uses <stdint.h> only.
        .target(
            name: "FuzzICU",
            dependencies: ["CFuzzICU"],
            path: "Sources/FuzzICU"
        ),
        // Shared harness code: an independent UTF-8 validator, failure messages.
        .target(
            name: "FuzzSupport",
            dependencies: ["FuzzICU"],
            path: "Sources/FuzzSupport"
        ),
        // Invariants of every preset over raw bytes.
        .executableTarget(
            name: "FoldFuzz",
            dependencies: [.product(name: "Fold", package: "Fold"), "FuzzSupport"],
            path: "Sources/FoldFuzz"
        ),
        // The plain forms against ICU, byte for byte.
        .executableTarget(
            name: "DifferentialFuzz",
            dependencies: [.product(name: "Fold", package: "Fold"), "FuzzSupport"],
            path: "Sources/DifferentialFuzz"
        ),
    ],
    swiftLanguageModes: [.v6],
    cxxLanguageStandard: .cxx17
)

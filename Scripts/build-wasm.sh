#!/usr/bin/env bash
# Builds fold.wasm: Fold's engine, its generated tables, tokens, fingerprint and search, for
# WebAssembly (wasm32-unknown-none-wasm, Embedded Swift), from the same Swift sources as the
# native library (Sources/Fold) plus the API in Wasm/Embedded/ and the freestanding C library in
# Wasm/libc/. `make wasm` runs it.
#
#   Scripts/build-wasm.sh [--out DIR] [--no-dictionaries]
#
# Writes DIR/fold.wasm (default .build-wasm/fold.wasm). --no-dictionaries leaves out the Thai,
# Lao, Khmer and Myanmar dictionaries (for the size table only: text in those scripts then gets
# one token per run; the page always ships the full module). Needs only the Swift toolchain
# (swiftc, clang, wasm-ld from the same folder).
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=.build-wasm
DICTIONARIES=1
while [ $# -gt 0 ]; do
    case "$1" in
        --out) OUT="$2"; shift 2 ;;
        --no-dictionaries) DICTIONARIES=0; shift ;;
        *) echo "build-wasm.sh: unknown argument $1" >&2; exit 64 ;;
    esac
done
SWIFTC=$(command -v swiftc || true)
[ -n "$SWIFTC" ] || { echo "build-wasm.sh: swiftc not found on PATH" >&2; exit 69; }
BIN=$(dirname "$(realpath "$SWIFTC")")
CLANG="$BIN/clang"
WASM_LD="$BIN/wasm-ld"
[ -x "$WASM_LD" ] || { echo "build-wasm.sh: $WASM_LD not found (a Swift 6.2+ toolchain ships it)" >&2; exit 69; }
OBJ="$OUT/obj"
NAME=fold
[ "$DICTIONARIES" = 1 ] || NAME=fold-no-dictionaries
# Up to date: nothing it is built from is newer than it (swiftc -wmo rebuilds the whole module).
if [ -f "$OUT/$NAME.wasm" ] && [ -z "$(find Sources/Fold Sources/CFoldUnicodeData Sources/CFoldBreakData Sources/CFoldSupport \
        Wasm "$0" -newer "$OUT/$NAME.wasm" -type f 2>/dev/null | head -1)" ]; then
    echo "build-wasm: $OUT/$NAME.wasm is up to date" >&2
    exit 0
fi
mkdir -p "$OBJ/modules"

# Clang module maps for Fold's C targets (SwiftPM makes these for the native build).
MODULE_FLAGS=()
for module in CFoldUnicodeData CFoldBreakData CFoldSupport; do
    mkdir -p "$OBJ/modules/$module"
    printf 'module %s {\n    umbrella "%s"\n    export *\n}\n' "$module" "$PWD/Sources/$module/include" > "$OBJ/modules/$module/module.modulemap"
    MODULE_FLAGS+=(-Xcc "-fmodule-map-file=$OBJ/modules/$module/module.modulemap" -I "Sources/$module/include")
done

# Every file of Sources/Fold but those of threads and Concurrency (LiveSearch), the
# explanation (foldcheck's), the streaming folder and the callback tokenizer (errors thrown
# through `any Error`, which Embedded Swift has not). Fold's C targets' sources as they are.
SWIFT_FILES=()
while IFS= read -r file; do SWIFT_FILES+=("$file"); done < <(
    find Sources/Fold -name '*.swift' \
        ! -path 'Sources/Fold/LiveSearch/*' \
        ! -name FoldExplanation.swift ! -name StreamingFolder.swift \
        ! -name Tokenizer.swift ! -name Tokenizer+Decoding.swift | LC_ALL=C sort)
C_FILES=(Sources/CFoldUnicodeData/unicode_data.c Sources/CFoldUnicodeData/word_classes.c Sources/CFoldUnicodeData/preset_maps.c
         Sources/CFoldBreakData/CFoldBreakData.c Sources/CFoldSupport/CFoldSupport.c Sources/CFoldSupport/CFoldPairRun.c Sources/CFoldSupport/CFoldWideRun.c
         Sources/CFoldSupport/CFoldQuickRun.c Wasm/libc/libc.c)
if [ "$DICTIONARIES" = 1 ]; then
    C_FILES+=(Sources/CFoldBreakData/CFoldBreakDictionaries.c)
else
    C_FILES+=(Wasm/libc/no_dictionaries.c)
fi

FEATURES=(-mbulk-memory -mnontrapping-fptoint -msign-ext)
echo "build-wasm: swiftc (Embedded Swift, ${#SWIFT_FILES[@]} files of Sources/Fold + Wasm/Embedded)" >&2
"$SWIFTC" -target wasm32-unknown-none-wasm -enable-experimental-feature Embedded -wmo -parse-as-library -Osize -disable-stack-protector -suppress-warnings \
    -module-name Fold -package-name Fold "${MODULE_FLAGS[@]}" \
    -I Wasm/libc/include -Xfrontend -import-module -Xfrontend FoldWasmLibc \
    $(for f in "${FEATURES[@]}"; do printf -- '-Xcc %s ' "$f"; done) \
    -c "${SWIFT_FILES[@]}" Wasm/Embedded/*.swift -o "$OBJ/Fold.o"

OBJECTS=("$OBJ/Fold.o")
for file in "${C_FILES[@]}"; do
    object="$OBJ/$(basename "${file%.c}").o"
    if [ ! -f "$object" ] || [ "$file" -nt "$object" ] || [ "$0" -nt "$object" ]; then
        echo "build-wasm: clang $file" >&2
        "$CLANG" --target=wasm32-unknown-unknown -O2 -ffreestanding -nostdlib "${FEATURES[@]}" \
            -I Wasm/libc/include -I Sources/CFoldUnicodeData/include -I Sources/CFoldBreakData/include \
            -I Sources/CFoldSupport/include -c "$file" -o "$object"
    fi
    OBJECTS+=("$object")
done

EXPORTS=()
for name in fold_alloc fold_free fold_result fold_profiles fold_folder fold_fingerprint fold_utf8 fold_tokens \
            fold_index_new fold_index_add fold_index_search fold_index_text fold_matches; do
    EXPORTS+=("--export=$name")
done
LIB="$(dirname "$BIN")/lib/swift/embedded/wasm32-unknown-none-wasm"
LINK=(--no-entry --gc-sections --error-limit=0 --strip-all -z stack-size=1048576 --export-memory)
"$WASM_LD" "${LINK[@]}" "${EXPORTS[@]}" "${OBJECTS[@]}" "$LIB/libswiftUnicodeDataTables.a" -o "$OUT/$NAME.wasm"
echo "build-wasm: $OUT/$NAME.wasm ($(wc -c < "$OUT/$NAME.wasm") bytes)" >&2

# The page's scripts beside fold.wasm: the kit `foldcheck web` copies.
if [ "$DICTIONARIES" = 1 ]; then cp Wasm/web/fold.js Wasm/web/search.js Wasm/web/index.html "$OUT/"; fi

# fold-runner.wasm: the same objects and a WASI command (Wasm/runner/runner.c) that calls the
# same API, for `wasmkit run` in the tests.
if [ "$DICTIONARIES" = 1 ]; then
    "$CLANG" --target=wasm32-unknown-unknown -O2 -ffreestanding -nostdlib "${FEATURES[@]}" -I Wasm/libc/include \
        -c Wasm/runner/runner.c -o "$OBJ/runner.o"
    "$WASM_LD" "${LINK[@]/--no-entry/--entry=_start}" "${OBJECTS[@]}" "$OBJ/runner.o" \
        "$LIB/libswiftUnicodeDataTables.a" -o "$OUT/fold-runner.wasm"
    echo "build-wasm: $OUT/fold-runner.wasm (for wasmkit run)" >&2
fi

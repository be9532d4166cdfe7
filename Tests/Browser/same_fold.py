"""Runs fold.wasm in headless Chromium over INPUT and prints what it gives, in the format of
fold-runner.wasm (Wasm/runner/runner.c), so that Tests/FoldTests/WasmTests.swift compares it
with the native fold byte for byte:

    same_fold.py --kit .build-wasm --mode fold|tokens --input FILE --out FILE PROFILE...

The page is built in a temporary folder from the kit's fold.wasm (base64, as `foldcheck web`
embeds it) and fold.js; the input goes in as base64 and the output comes back as base64, in slices
of 8 MB."""
import argparse
import base64
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import chromium  # noqa: E402

# The output comes back in slices of this many bytes (one WebDriver answer each).
SLICE_BYTES = 8 << 20

HARNESS = r"""
// The output grows in one buffer (doubled as it fills), not in an array of small pieces: the
// tokens of every profile make about 180 MB, and millions of small arrays (two a token) once
// crashed the tab. It stays in the page, and Python reads it in slices.
async function runSameFold(inputBase64, mode, profiles) {
  const fold = await FoldWasm.load(FoldWasm.bytesOfBase64(window.FOLD_WASM_BASE64));
  const input = FoldWasm.bytesOfBase64(inputBase64);
  const encoder = new TextEncoder();
  let buffer = new Uint8Array(1 << 24);
  let size = 0;
  const reserve = (n) => {
    if (size + n <= buffer.length) return;
    let capacity = buffer.length * 2;
    while (capacity < size + n) capacity *= 2;
    const grown = new Uint8Array(capacity);
    grown.set(buffer.subarray(0, size));
    buffer = grown;
  };
  const emit = (bytes) => { reserve(bytes.length); buffer.set(bytes, size); size += bytes.length; };
  const emitText = (text) => { reserve(3 * text.length); size += encoder.encodeInto(text, buffer.subarray(size)).written; };
  for (const name of profiles) {
    const folder = fold.folder(name);
    emitText(`# ${name} ${fold.fingerprint(folder)}\n`);
    let start = 0;
    while (start < input.length) {
      let end = input.indexOf(10, start);
      if (end < 0) end = input.length;
      const line = input.subarray(start, end);
      try {
        if (mode === "fold") {
          emit(fold.foldUTF8(folder, line));
        } else {
          const tokens = fold.tokens(folder, line);
          tokens.forEach((t, k) => {
            emitText(`${k ? " " : ""}${t.start}-${t.end}:`);
            emit(t.foldedUTF8);
          });
        }
      } catch (error) {
        if (error.byteOffset === undefined) throw error;
        emitText(`invalid@${error.byteOffset}`);
      }
      emitText("\n");
      start = end + 1;
    }
  }
  window.sameFoldOutput = buffer.subarray(0, size);
  return size;
}

// Bytes `start` to `end` of the output, in base64.
function sameFoldSlice(start, end) {
  const part = window.sameFoldOutput.subarray(start, end);
  let binary = "";
  for (let i = 0; i < part.length; i += 0x8000) binary += String.fromCharCode.apply(null, part.subarray(i, i + 0x8000));
  return btoa(binary);
}
"""


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--kit", required=True)
    parser.add_argument("--mode", choices=["fold", "tokens"], required=True)
    parser.add_argument("--input", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("profiles", nargs="+")
    args = parser.parse_args()
    with open(os.path.join(args.kit, "fold.wasm"), "rb") as f:
        wasm = base64.b64encode(f.read()).decode()
    with open(os.path.join(args.kit, "fold.js")) as f:
        fold_js = f.read()
    with open(args.input, "rb") as f:
        data = base64.b64encode(f.read()).decode()
    with tempfile.TemporaryDirectory(prefix="fold-same-") as folder:
        with open(os.path.join(folder, "fold-wasm.js"), "w") as f:
            f.write(f'window.FOLD_WASM_BASE64 = "{wasm}";\n')
        with open(os.path.join(folder, "fold.js"), "w") as f:
            f.write(fold_js)
        with open(os.path.join(folder, "harness.js"), "w") as f:
            f.write(HARNESS)
        with open(os.path.join(folder, "index.html"), "w") as f:
            f.write('<!doctype html><meta charset="utf-8"><script src="fold-wasm.js"></script>'
                    '<script src="fold.js"></script><script src="harness.js"></script>')
        driver = chromium.start()
        try:
            driver.get(chromium.file_url(os.path.join(folder, "index.html")))
            size = driver.execute_async_script(
                "const done = arguments[arguments.length - 1];"
                "runSameFold(arguments[0], arguments[1], arguments[2]).then(done, (e) => done('ERROR ' + e));",
                data, args.mode, args.profiles)
            if isinstance(size, str):
                print(f"same_fold.py: the page failed: {size.removeprefix('ERROR ')}", file=sys.stderr)
                return 1
            with open(args.out, "wb") as f:
                for start in range(0, size, SLICE_BYTES):
                    end = min(size, start + SLICE_BYTES)
                    f.write(base64.b64decode(driver.execute_script("return sameFoldSlice(arguments[0], arguments[1]);", start, end)))
        finally:
            chromium.stop(driver)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Runs fold.wasm in headless Chromium over INPUT and prints what it gives, in the format of
fold-runner.wasm (Wasm/runner/runner.c), so that Tests/FoldTests/WasmTests.swift compares it
with the native fold byte for byte:

    same_fold.py --kit .build-wasm --mode fold|tokens --input FILE --out FILE PROFILE...

The page is built in a temporary folder from the kit's fold.wasm (base64, as `foldcheck web`
embeds it) and fold.js; the input goes in as base64 and the output comes back as base64."""
import argparse
import base64
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import chromium  # noqa: E402

HARNESS = r"""
async function runSameFold(inputBase64, mode, profiles) {
  const fold = await FoldWasm.load(FoldWasm.bytesOfBase64(window.FOLD_WASM_BASE64));
  const input = FoldWasm.bytesOfBase64(inputBase64);
  const encoder = new TextEncoder();
  const chunks = [];
  let size = 0;
  const emit = (bytes) => { chunks.push(bytes); size += bytes.length; };
  const emitText = (text) => emit(encoder.encode(text));
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
            emit(t.foldedUTF8.slice());
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
  const all = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) { all.set(c, at); at += c.length; }
  let binary = "";
  for (let i = 0; i < all.length; i += 0x8000) binary += String.fromCharCode.apply(null, all.subarray(i, i + 0x8000));
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
            result = driver.execute_async_script(
                "const done = arguments[arguments.length - 1];"
                "runSameFold(arguments[0], arguments[1], arguments[2]).then(done, (e) => done('ERROR ' + e));",
                data, args.mode, args.profiles)
        finally:
            chromium.stop(driver)
    if result.startswith("ERROR "):
        print(f"same_fold.py: the page failed: {result[6:]}", file=sys.stderr)
        return 1
    with open(args.out, "wb") as f:
        f.write(base64.b64decode(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())

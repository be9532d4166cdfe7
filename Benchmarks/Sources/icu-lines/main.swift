// icu-lines: ICU's nfkc_cf as a line-by-line CLI, the peer of `foldcheck` in
// `make bench-foldcheck`. Reads stdin, writes each line folded by ICU's
// `Normalizer2::getNFKCCasefoldInstance()->normalizeUTF8` (through ICUPeers) and its newline.
// The reading and writing are the same kind as foldcheck's: a 256 KiB read buffer, lines found
// with memchr, one 256 KiB output buffer.
import ICUPeers

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

func run() {
    var status: Int32 = 0
    guard let peer = icupeer_create(Int32(ICUPEER_NFKC_CF_UTF8), &status) else {
        let message = "icu-lines: ICU error \(status)\n"
        _ = message.withCString { write(2, $0, strlen($0)) }
        exit(70)
    }
    let bufferSize = 1 << 18
    var input = [UInt8](repeating: 0, count: bufferSize)
    var output = [UInt8](repeating: 0, count: bufferSize)
    var scratch = [UInt8](repeating: 0, count: 1 << 16)
    var outCount = 0
    var start = 0, end = 0

    func flush() {
        var offset = 0
        while offset < outCount {
            let n = output.withUnsafeBytes { write(1, $0.baseAddress! + offset, outCount - offset) }
            if n <= 0 { exit(74) }
            offset += n
        }
        outCount = 0
    }

    func emit(_ line: UnsafeRawBufferPointer) {
        while true {
            let n = scratch.withUnsafeMutableBytes { dst in
                icupeer_fold(peer, line.baseAddress?.assumingMemoryBound(to: UInt8.self), Int64(line.count),
                             dst.baseAddress!.assumingMemoryBound(to: UInt8.self), Int64(dst.count))
            }
            if n < 0 { exit(70) }
            if Int(n) > scratch.count { scratch = [UInt8](repeating: 0, count: Int(n) * 2); continue }
            if outCount + Int(n) + 1 > output.count { flush() }
            if Int(n) + 1 > output.count { output = [UInt8](repeating: 0, count: Int(n) * 2) }
            output.withUnsafeMutableBytes { dst in
                scratch.withUnsafeBytes { src in (dst.baseAddress! + outCount).copyMemory(from: src.baseAddress!, byteCount: Int(n)) }
            }
            outCount += Int(n)
            output[outCount] = 0x0A
            outCount += 1
            return
        }
    }

    var atEOF = false
    while true {
        // Move the unfinished line to the front and read more after it.
        if start > 0 {
            input.withUnsafeMutableBytes { p in memmove(p.baseAddress!, p.baseAddress! + start, end - start) }
            end -= start
            start = 0
        }
        if end == input.count { input += [UInt8](repeating: 0, count: input.count) }
        let n = input.withUnsafeMutableBytes { read(0, $0.baseAddress! + end, $0.count - end) }
        if n < 0 { exit(74) }
        if n == 0 { atEOF = true }
        end += n
        input.withUnsafeBytes { p in
            while start < end {
                guard let nl = memchr(p.baseAddress! + start, 0x0A, end - start) else { break }
                let at = UnsafeRawPointer(nl) - p.baseAddress!
                emit(UnsafeRawBufferPointer(rebasing: p[start..<at]))
                start = at + 1
            }
            if atEOF && start < end {
                emit(UnsafeRawBufferPointer(rebasing: p[start..<end]))
                start = end
            }
        }
        if atEOF { break }
    }
    flush()
    icupeer_destroy(peer)
}

run()

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Fold

/// Reads the inputs line by line (LF or CRLF; a last line without a newline counts) and appends
/// them to the index in blocks: at least 4,096 lines and a quarter of what has loaded (so the
/// copies the published values cost stay linear in all), or whatever came in the last 250 ms.
enum LiveReader {
    static func load(_ inputs: [Input], into index: SearchIndex<Int>, for screen: LiveScreen) {
        var index = index
        var block: [(id: Int, text: String)] = []
        var bytes = 0
        var lastFlush = ContinuousClock.now
        func flush() {
            index.append(contentsOf: block)
            block.removeAll(keepingCapacity: true)
            lastFlush = .now
            screen.loaded(index, bytes: bytes)
        }
        func add(_ line: UnsafeRawBufferPointer) {
            var line = line
            if line.last == 0x0D { line = UnsafeRawBufferPointer(rebasing: line.dropLast()) }
            block.append((id: index.count + block.count, text: String(decoding: line, as: UTF8.self)))
        }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 1)
        defer { buffer.deallocate() }
        var carry: [UInt8] = []
        for input in inputs {
            defer { input.close() }
            while true {
                let n = read(input.fd, buffer.baseAddress, buffer.count)
                if n < 0 {
                    if errno == EINTR { continue }
                    screen.readFailed("cannot read \(input.name): \(String(cString: strerror(errno)))")
                    break
                }
                if n == 0 { break }
                bytes += n
                let chunk = UnsafeRawBufferPointer(rebasing: buffer[0..<n])
                var start = 0
                while start < n, let found = memchr(chunk.baseAddress! + start, 0x0A, n - start) {
                    let end = chunk.baseAddress!.distance(to: UnsafeRawPointer(found))
                    if carry.isEmpty {
                        add(UnsafeRawBufferPointer(rebasing: chunk[start..<end]))
                    } else {
                        carry.append(contentsOf: chunk[start..<end])
                        carry.withUnsafeBytes { add($0) }
                        carry.removeAll(keepingCapacity: carry.capacity <= 1 << 20)
                    }
                    start = end + 1
                }
                carry.append(contentsOf: chunk[start..<n])
                if block.count >= max(4096, index.count / 4) || (!block.isEmpty && ContinuousClock.now - lastFlush >= .milliseconds(250)) {
                    flush()
                }
            }
            if !carry.isEmpty {
                carry.withUnsafeBytes { add($0) }
                carry.removeAll()
            }
        }
        flush()
        screen.finishedLoading()
    }
}

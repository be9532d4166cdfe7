extension SearchIndex {
    /// How many of `count` texts are folded (in parallel, see ``append(contentsOf:)``) between
    /// two progress reports and cancellation checks: about 32 blocks, of 4,096 to 65,536 texts.
    static func buildBlock(_ count: Int) -> Int { max(4096, min(65_536, count / 32)) }

    #if !hasFeature(Embedded)  // no Concurrency in the WebAssembly build
    /// Builds an index in the background, reporting progress: fractions that only grow and end
    /// at exactly 1 when the index is complete. Cancelling the task stops the build within one
    /// block of texts and throws `CancellationError`: a partial index is never returned. Run it
    /// in a task of its own (a progress bar and a Cancel button drive it), never on the main
    /// actor.
    ///
    /// ```swift
    /// let build = Task.detached {
    ///     try await SearchIndex.build(items, folder: folder) { fraction in
    ///         Task { @MainActor in progressBar.value = fraction }
    ///     }
    /// }
    /// cancelButton.action = { build.cancel() }
    /// ```
    public static func build(_ items: [(id: ID, text: String)], folder: Folder,
                             progress: @Sendable (Double) -> Void = { _ in }) async throws -> SearchIndex {
        var index = SearchIndex(folder: folder)
        var done = 0
        var reported = 0.0
        while done < items.count {
            try Task.checkCancellation()
            let end = min(items.count, done + Self.buildBlock(items.count))
            index.append(contentsOf: items[done..<end])
            done = end
            // Strictly below 1 until the index is whole.
            let fraction = min(Double(done) / Double(items.count), done == items.count ? 1 : 0.999_999)
            if fraction > reported {
                reported = fraction
                if fraction < 1 { progress(fraction) }
            }
            await Task.yield()
        }
        try Task.checkCancellation()
        progress(1)
        return index
    }
    #endif

    /// The keys of consecutive texts, with offsets from the block's start.
    struct KeyBlock {
        var bytes: [UInt8] = []
        /// Where each key ends.
        var keyEnds: [Int] = []
        var wordStarts: [Int32] = []
        /// How many words there are up to the end of each key.
        var wordEnds: [Int32] = []
        var summaries: [KeySummary] = []

        init() {}

        init(_ items: ArraySlice<(id: ID, text: String)>, folder: Folder) {
            keyEnds.reserveCapacity(items.count)
            wordEnds.reserveCapacity(items.count)
            summaries.reserveCapacity(items.count)
            for (_, text) in items {
                // The fold straight into the buffer, and the tokenizer's words over it.
                var text = text
                var summary = KeySummary()
                text.withUTF8 { utf8 in
                    folder.withFoldedStringUTF8(utf8) { key in
                        let base = bytes.count
                        bytes.append(contentsOf: key)
                        summary.add(UnsafeRawBufferPointer(key))
                        WordBreaker.forEachWord(in: key, table: folder.engine.wordBreakTable) {
                            wordStarts.append(Int32(base + $0.lowerBound))
                            summary.addWordStart(key[$0.lowerBound])
                        }
                    }
                }
                wordEnds.append(Int32(wordStarts.count))
                keyEnds.append(bytes.count)
                summaries.append(summary)
            }
        }
    }
}

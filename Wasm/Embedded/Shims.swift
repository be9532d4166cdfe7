// Compiled into fold.wasm only (Scripts/build-wasm.sh), with Fold's sources: what those sources
// take from Dispatch and Concurrency, for a module that has neither and runs on one thread.
// With ActiveCores.count == 1 SearchIndex never splits its work, so concurrentPerform is there
// for the compiler alone; Task.checkCancellation has nothing to cancel.

enum DispatchQueue {
    static func concurrentPerform(iterations: Int, execute work: (Int) -> Void) {
        for k in 0..<iterations { work(k) }
    }
}

enum Task {
    static func checkCancellation() throws {}
}

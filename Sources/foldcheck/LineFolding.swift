import Fold

/// Folds lines one at a time into an ``Output``: a whole line straight from the reader's buffer
/// with one call, a line in pieces through the library's streaming folder, so a long line is
/// folded as it arrives and memory stays bounded. The stream is reset for each line.
struct LineFolding {
    let inputName: String
    private var stream: StreamingFolder

    init(_ folder: Folder, replacingInvalid: Bool, inputName: String) {
        stream = StreamingFolder(folder, replacingInvalid: replacingInvalid)
        self.inputName = inputName
    }

    mutating func fold(_ piece: LinePiece, into out: Output) throws {
        do {
            if piece.isWholeLine {
                do {
                    try stream.folder.withFoldedUTF8(piece.content.bindMemory(to: UInt8.self)) { try out.write(UnsafeRawBufferPointer($0)) }
                } catch is InvalidUTF8Error where stream.replacingInvalid {
                    // withFoldedUTF8 emits nothing on an error: repair through the stream.
                    try stream.fold(piece.content) { try out.write($0) }
                    try stream.finish { try out.write($0) }
                }
            } else {
                try stream.fold(piece.content) { try out.write($0) }
                if piece.complete { try stream.finish { try out.write($0) } }
            }
            if piece.complete { try out.write(piece.ending) }
        } catch let error as InvalidUTF8Error {
            stream.reset()
            throw Self.invalidUTF8(line: piece.lineNumber, offset: error.byteOffset, lineStart: piece.lineStart, inputName: inputName)
        } catch let error as UnsplittableInputError {
            stream.reset()
            throw Failure(message: "foldcheck: line \(piece.lineNumber) has more than \(error.limit >> 20) MiB without a point where it can be folded in pieces (one combining sequence); refusing it rather than holding it in memory", code: Exit.dataError)
        }
    }

    static func invalidUTF8(line: Int, offset: Int, lineStart: Int, inputName: String) -> Failure {
        Failure(
            message: "foldcheck: invalid UTF-8 on line \(line) at byte offset \(offset) of the line (byte offset \(lineStart + offset) of \(inputName)); use --replace-invalid to replace it with U+FFFD",
            code: Exit.dataError)
    }
}

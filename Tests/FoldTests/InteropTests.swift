// This module imports Foundation and Fold together: if ICU's C types ever leaked into Fold's
// interface, this file would stop compiling (Foundation on Linux carries its own ICU).
import Foundation
import Fold
import Testing

@Suite struct InteropTests {
    @Test func foundationAndFoldInOneModule() throws {
        let folder = try Folder(.search)
        let text = NSString(string: "Crème Brûlée").appending(" Straße") as String
        #expect(folder.fold(text) == "creme brulee strasse")
        let data = Data("Ærø".utf8)
        #expect(try folder.fold(utf8: data) == Array("aero".utf8))
    }
}

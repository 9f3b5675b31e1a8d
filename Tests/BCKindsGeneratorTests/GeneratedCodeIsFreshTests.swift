import BCKindsCatalogue
import BCKindsGenerator
import Foundation
import Testing

/// The committed Swift of `Sources/BCMessages` is exactly what the catalogue generates: a key changed in
/// `Catalogue/` without `swift package generate-kinds` (or a generated file edited by hand) fails here.
@Suite struct GeneratedCodeIsFreshTests {
    static let messages = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/BCMessages")

    @Test func committedFilesMatchTheCatalogue() throws {
        let files = try KindsGenerator.files(for: .bcstream)
        let stale = try KindsGenerator.staleFiles(files, in: Self.messages)
        #expect(stale == [], "run `swift package generate-kinds` and commit: \(stale)")
    }

    @Test func everyGeneratedFileSaysWhereToEdit() throws {
        for file in try KindsGenerator.files(for: .bcstream) {
            let first = file.contents.prefix { $0 != "\n" }
            #expect(first.hasPrefix(KindsGenerator.marker + " from Catalogue/"), "\(file.path): \(first)")
        }
    }
}

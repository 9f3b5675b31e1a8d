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
            #expect(file.path.hasSuffix(KindsGenerator.suffix), "\(file.path): named as generated")
        }
    }
}

/// The catalogue also reads as a JSON Schema, for tools outside Swift.
@Suite struct JSONSchemaTests {
    @Test func everyKindIsOneOfTheSchema() throws {
        let text = try KindsGenerator.jsonSchema(for: .bcstream)
        let schema = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let kinds = try #require(schema["oneOf"] as? [[String: Any]])
        #expect(kinds.count == Catalogue.bcstream.kinds.count)
        let definitions = try #require(schema["$defs"] as? [String: Any])
        let gift = try #require(definitions["Gift"] as? [String: Any])
        let properties = try #require(gift["properties"] as? [String: Any])
        #expect(properties["gift_id"] != nil && properties["u"] == nil)  // the user block is a $ref
        #expect(definitions["Avatar.Item"] != nil && definitions["GiftRanking.NearbyUser"] != nil)
        // Every $ref points at a definition.
        for reference in text.matches(of: /"\$ref" : "#\/\$defs\/([^"]+)"/) {
            #expect(definitions[String(reference.1)] != nil, "\(reference.1)")
        }
    }
}

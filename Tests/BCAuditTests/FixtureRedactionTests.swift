import BCAudit
import BCMessages
import Foundation
import Testing

@Suite struct FixtureRedactionTests {
    static let gift = #"{"t":35,"u":"4411","ac":"\u307f\u304b\u3093","iurl":"https:\/\/cdn.real.com\/image\/profile_image\/4411_m.jpeg?1618843177","burl":"","gift_id":"120","gift_title":"heart","coins":"500","count":"1","speech":"\u307f\u304b\u3093\u304c\u8d08\u308a\u307e\u3057\u305f","gift_small_image_url":"https://cdn.real.com/assets/gift/120/small.png?v=207","message":"see https://example.com/page"}"#

    @Test func userFieldsAreReplacedInPlaceAndEverythingElseIsKept() throws {
        let redaction = try FixtureRedaction.redact(Self.gift)
        let expected = Self.gift
            .replacing(#""u":"4411""#, with: #""u":"100000001""#)
            .replacing(#""ac":"\u307f\u304b\u3093""#, with: #""ac":"viewer1""#)
            .replacing(#"https:\/\/cdn.real.com\/image\/profile_image\/4411_m.jpeg?1618843177"#,
                       with: #"https:\/\/cdn.example.com\/image\/placeholder.png"#)
            .replacing("https://cdn.real.com/assets/gift/120/small.png?v=207", with: FixtureRedaction.imagePlaceholder)
        #expect(redaction.text == expected, "byte for byte the original but the replaced values")
        #expect(Set(redaction.replaced.map(\.path)) == ["u", "ac", "iurl", "gift_small_image_url"])
        #expect(redaction.mentionsLeft == ["speech"], "the speech quotes the real name: named for a person to check")

        // It still decodes, to the original but for the made-up fields.
        guard case .gift(let original) = try BCMessageDecoder().decode(Self.gift),
              case .gift(let written) = try BCMessageDecoder().decode(redaction.text)
        else { Issue.record("not a gift"); return }
        #expect(written.user.id == "100000001" && written.user.name == "viewer1")
        #expect(written.user.profileImageURL == FixtureRedaction.imagePlaceholder)
        #expect(written.user.badgeImageURL == "", "an empty URL is no one's")
        var expectedGift = original
        expectedGift.user = written.user
        expectedGift.giftSmallImageURL = FixtureRedaction.imagePlaceholder
        #expect(written == expectedGift)
    }

    @Test func aNumberStaysANumberAndTheSameUserTheSameStandIn() throws {
        let top = #"{"users":[{"u":9,"ac":"A","iurl":"","burl":""},{"u":"7","ac":"B","iurl":"","burl":""},{"u":9,"ac":"A","iurl":"","burl":""}],"t":38}"#
        let redaction = try FixtureRedaction.redact(top)
        #expect(redaction.text == #"{"users":[{"u":100000001,"ac":"viewer1","iurl":"","burl":""},{"u":"100000002","ac":"viewer2","iurl":"","burl":""},{"u":100000001,"ac":"viewer1","iurl":"","burl":""}],"t":38}"#)
        #expect(throws: Never.self) { try BCMessageDecoder(mode: .strict).decode(redaction.text) }
    }

    @Test func aMessageWithoutUserFieldsIsKeptWhole() throws {
        let line = #"{"t":23,"online_viewer_num":44,"total_viewer_num":"1200"}"#
        let redaction = try FixtureRedaction.redact(line)
        #expect(redaction.text == line && redaction.replaced.isEmpty)
    }

    @Test(arguments: [
        ("https://a.b/x.png", true), ("http://a.b/x.JPG?1", true), ("https://a.b/x.webp#f", true),
        ("https://a.b/page", false), ("ftp://a.b/x.png", false), ("x.png", false), ("https://a.b/x.png.html", false),
    ])
    func imageURLs(_ text: String, isImage: Bool) {
        #expect(FixtureRedaction.isImageURL(text) == isImage)
    }

    /// The slug is the one `FixtureTests.fileNameStartsWithItsTypeAndKind` expects of every fixture.
    @Test(arguments: BCType.allCases)
    func kindSlugIsTheFixturesKebabCase(_ type: BCType) {
        let kebab = type.name.replacing(/([a-z])([A-Z])|([A-Z])([A-Z][a-z])/) { match in
            "\(match.1 ?? match.3 ?? "")-\(match.2 ?? match.4 ?? "")"
        }.lowercased()
        #expect(FixtureName.kindSlug(t: type.rawValue) == kebab)
        #expect(FixtureName.fileName(t: type.rawValue, what: "x") == "\(type.rawValue)-\(kebab)-x.json")
    }

    @Test func anUnknownKindIsUnknown() {
        #expect(FixtureName.fileName(t: 777, what: "mission") == "777-unknown-mission.json")
    }

    @Test(arguments: ["", "a/b", "..", "../x", "a\\b", "Upper", "-x", "with space", String(repeating: "a", count: 81)])
    func badNamesAreRefused(_ what: String) {
        #expect(FixtureName.problem(with: what) != nil)
    }

    @Test(arguments: ["new-badge", "coins-bool", "x1"])
    func goodNamesPass(_ what: String) {
        #expect(FixtureName.problem(with: what) == nil)
    }
}

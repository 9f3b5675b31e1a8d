import BCKindsGenerator
import Testing

/// What adding a key and adding a kind take: one line, and one declaration plus one line. The generator is run
/// on a small catalogue and the Swift it writes for the change is checked, from the struct to the fast engine.
@Suite struct CatalogueChangeTests {
    static let viewerCount = Struct("ViewerCountChanged", doc: "t=23 `LiveViewerNumChanged`: the viewer counters.", [
        .required("online_viewer_num", "onlineViewerCount", .int, "viewers watching now."),
        .required("total_viewer_num", "totalViewerCount", .int, "viewers since the live started."),
        // The added key: this one line is all it takes.
        .optional("peak_viewer_num", "peakViewerCount", .int, "the most viewers at once in this live."),
    ])
    // The added kind: its struct, and one line in the list of kinds.
    static let stickerSent = Struct("StickerSent", doc: "t=130 (not in the app): a viewer sent a sticker.", [
        .user("Who sent it: `u`, `ac`, `iurl`, `burl`."),
        .required("sticker_id", "stickerID", .string, "the sticker's id."),
        .optional("collab_type", "collabType", .openEnum("CollabType"), "the collab it was sent in, if any."),
    ])
    static let catalogue = Catalogue(kinds: [
        Kind(23, "viewerCountChanged", "viewer counters", app: "LiveViewerNumChanged", .appModel, viewerCount),
        Kind(130, "stickerSent", "a viewer sent a sticker", app: nil, .captured, stickerSent),
        Kind(27, "liveUnlinked", "link removed", app: "LiveUnlinked", .appModel),
    ])

    static func file(_ path: String) throws -> String {
        try #require(try KindsGenerator.files(for: catalogue).first { $0.path == path }).contents
    }

    @Test func anAddedKeyIsDeclaredDecodedEncodedAndReadOffTheTape() throws {
        let swift = try Self.file("Kinds/ViewerCountChanged.generated.swift")
        for line in [
            "        /// `peak_viewer_num`: the most viewers at once in this live.",
            // A public property over the wrapper that stores it (a plain stored property, see `StructEmitter`).
            "        public var peakViewerCount: Int? {",
            "            get { _peakViewerCount.wrappedValue }",
            "        var _peakViewerCount: OptionalForcibleInt",
            // The initializers, in the extension after the struct.
            "    public init(onlineViewerCount: Int, totalViewerCount: Int, peakViewerCount: Int? = nil) {",
            "            _peakViewerCount: OptionalForcibleInt(wrappedValue: peakViewerCount)",
            "            case peakViewerCount = \"peak_viewer_num\"",
            "        _peakViewerCount = try container.decode(OptionalForcibleInt.self, forKey: .peakViewerCount)",
            "            try container.encode(_peakViewerCount, forKey: .peakViewerCount)",
            // Read off the tape in the one pass over the members: matched by its length and its bytes.
            "            case 15:",
            "                if key.word(0) == 0x6569765f6b616570 && key.word(8) == 0x6d756e5f726577 {  // peak_viewer_num",
            "                    peakViewerCount = try object.optionalInt(at: value)",
            "            _peakViewerCount: OptionalForcibleInt(wrappedValue: peakViewerCount))",
            // Written directly for NDJSON, in sorted key order, `t` among them, left out when nil.
            """
                        if let value = peakViewerCount {
                            writer.key("peak_viewer_num")
                            writer.int(value)
                        }
                        if let t {
                            writer.key("t")
                            writer.int(t)
                        }
                        writer.key("total_viewer_num")
                        writer.int(totalViewerCount)
            """,
        ] {
            #expect(swift.contains(line + "\n"), "missing: \(line)")
        }
    }

    @Test func anAddedKindGetsItsStructItsCasesAndItsDispatch() throws {
        let swift = try Self.file("Kinds/StickerSent.generated.swift")
        for line in [
            "    public struct StickerSent: BCPayload, UserAttributed {",
            "        public var user: User",
            "        public var stickerID: String { get { _stickerID.wrappedValue } set { _stickerID.wrappedValue = newValue } }",
            "        var _stickerID: ForcibleString",
            "        public var collabType: CollabType?",
            "    public init(user: User, stickerID: String, collabType: CollabType? = nil) {",
            "        self.init(user: user, _stickerID: ForcibleString(wrappedValue: stickerID), collabType: collabType)",
            "        user = try User(from: decoder)",
            "        collabType = try container.decodeIfPresent(CollabType.self, forKey: .collabType)",
            "            try container.encodeIfPresent(collabType, forKey: .collabType)",
            // This catalogue does not declare `User`: the block reads itself, in a pass of its own.
            "            user: try User(tape: object),",
            "            _stickerID: ForcibleString(wrappedValue: stickerID),",
            "                    collabType = try object.optionalInt(at: value).map(CollabType.init(rawValue:))",
            "            collabType: collabType)",
            // This catalogue does not declare `User`: its keys are unknown, so JSONEncoder writes the struct.
            "            writer.appendEncoded(self, t: t)",
        ] {
            #expect(swift.contains(line + "\n"), "missing: \(line)")
        }
        let type = try Self.file("BCType.generated.swift")
        #expect(type.contains("""
                /// t=130: a viewer sent a sticker. Not in the app; evidence: captured on the wire; `BCResponse.StickerSent`.
                case stickerSent = 130
            """))
        let response = try Self.file("BCResponse.generated.swift")
        for line in [
            "    case stickerSent(StickerSent)",
            "        case .stickerSent: self = .stickerSent(try StickerSent(from: decoder))",
            "        case .stickerSent: .stickerSent(try StickerSent(tape: object))",
            "        case .liveUnlinked: self = .liveUnlinked",
            "        case .stickerSent(let payload): payload.writeCanonicalJSON(into: &writer, t: 130)",
            "        case .liveUnlinked: writer.bareMessage(t: 27)",
        ] {
            #expect(response.contains(line + "\n"), "missing: \(line)")
        }
    }

    /// What `bcstream audit` compares captures with: the added key and kind are known to it with no more work.
    @Test func anAddedKeyAndKindAreKnownToTheAudit() throws {
        let swift = try Self.file("BCType+WireFields.generated.swift")
        for line in [
            "        .viewerCountChanged: [",
            "            BCWireField(\"online_viewer_num\", .int),",
            "            BCWireField(\"peak_viewer_num\", .int, optional: true),",
            "        .stickerSent: [",
            "            BCWireField(\"sticker_id\", .string),",
            "            BCWireField(\"collab_type\", .openEnum, optional: true),",
            "        .liveUnlinked: [],",
        ] {
            #expect(swift.contains(line + "\n"), "\(line)")
        }
    }

    /// Nested structs give nested paths: an object's keys after `.`, an array's elements as `[]`.
    @Test func nestedStructsGiveNestedPaths() throws {
        let ranked = Struct("Ranked", doc: "t=132: rankings.", [
            .optional("rankings", "rankings", .objects("Ranking"), "the rankings."),
            .required("ids", "ids", .ints, "ids."),
        ], nested: [Struct("Ranking", doc: "One ranking.", [
            .required("r", "rank", .int, "the rank."),
            .optional("owner", "owner", .object("Owner"), "who."),
        ], nested: [Struct("Owner", doc: "Who.", [.required("n", "name", .string, "the name.")])])])
        let files = try KindsGenerator.files(for: Catalogue(kinds: [Kind(132, "ranked", "r", app: nil, .captured, ranked)]))
        let swift = try #require(files.first { $0.path == "BCType+WireFields.generated.swift" }).contents
        let expected = [
            #"BCWireField("rankings", .array, optional: true),"#,
            #"BCWireField("rankings[]", .object),"#,
            #"BCWireField("rankings[].r", .int),"#,
            #"BCWireField("rankings[].owner", .object, optional: true),"#,
            #"BCWireField("rankings[].owner.n", .string),"#,
            #"BCWireField("ids", .array),"#,
            #"BCWireField("ids[]", .int),"#,
        ].map { "            " + $0 + "\n" }.joined()
        #expect(swift.contains(expected), "\(swift)")
    }

    @Test func aKeyWrittenTwiceIsAnErrorThatNamesIt() {
        let twice = Struct("Twice", doc: "t=131: a key read twice.", [
            .required("cm", "text", .string, "the text."),
            .optional("cm", "comment", .string, "the text again."),
        ])
        #expect(throws: CatalogueError.self) {
            try KindsGenerator.files(for: Catalogue(kinds: [Kind(131, "twice", "twice", app: nil, .captured, twice)]))
        }
        do {
            _ = try KindsGenerator.files(for: Catalogue(kinds: [Kind(131, "twice", "twice", app: nil, .captured, twice)]))
        } catch {
            #expect(error.description == "Twice: key \"cm\" is read by both text and comment")
        }
    }

    @Test func aNestedStructThatIsNotDeclaredIsNamed() {
        let misspelt = Struct("Ranked", doc: "t=132: rankings.", [
            .required("rankings", "rankings", .objects("GiftRankng"), "the rankings."),
        ], nested: [Struct("GiftRanking", doc: "One ranking.", [.required("r", "rank", .int, "the rank.")])])
        do {
            _ = try KindsGenerator.files(for: Catalogue(kinds: [Kind(132, "ranked", "r", app: nil, .captured, misspelt)]))
            Issue.record("generated")
        } catch {
            #expect(error.description == "Ranked.rankings: no struct GiftRankng is declared "
                + "(nested in Ranked or around it, shared, or a kind's payload)")
        }
    }

    @Test func aTDeclaredTwiceIsAnError() {
        #expect(throws: CatalogueError.self) {
            try KindsGenerator.files(for: Catalogue(kinds: [
                Kind(27, "liveUnlinked", "link removed", app: nil, .appModel),
                Kind(27, "again", "again", app: nil, .appModel),
            ]))
        }
    }

    /// A generated file is told from a hand-written one by its name, so a catalogue cannot give it another.
    @Test func aGeneratedFileNameWithoutTheSuffixIsNamed() {
        let shared = Struct("Badge", file: "Badge.swift", doc: "A badge.", [.required("b", "url", .string, "its URL.")])
        do {
            _ = try KindsGenerator.files(for: Catalogue(kinds: [], shared: [shared]))
            Issue.record("generated")
        } catch {
            #expect(error.description == "Badge: file \"Badge.swift\" must end in .generated.swift, as every generated file does")
        }
    }
}

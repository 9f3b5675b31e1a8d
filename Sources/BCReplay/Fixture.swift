import BCFixtures
import BCMessages

/// One fixture file: a single message exactly as the wire sends it, named `<t>-<kind-kebab>-<what>.json`
/// (`35-gift-small-heart-captured-shape.json`).
public struct Fixture: Hashable, Sendable, Codable {
    /// The file name without `.json`.
    public var name: String
    /// The file's path as the user gave it or as found in its folder.
    public var path: String
    /// The message's JSON, exactly the bytes of the file.
    public var json: String

    /// The fixture `name` read from `path`, holding `json`.
    public init(name: String, path: String, json: String) {
        self.name = name
        self.path = path
        self.json = json
    }

    /// The `t` the name starts with (`35`), nil when it starts with no number (`not-an-object`).
    public var t: Int? { Self.t(ofName: name) }

    /// The known kind of that `t`, nil for a `t` of no known kind or no `t` at all.
    public var kind: BCType? { t.flatMap(BCType.init(rawValue:)) }

    /// The fixture as something to send.
    public var item: ReplayItem { .fixture(name: name, json: json, file: path) }

    /// The `t` a fixture name starts with (as `BCFixture` reads it).
    static func t(ofName name: String) -> Int? {
        BCFixture.t(ofName: name)
    }

    /// The order of a fixture folder, as `BCFixtures` reads it: by `t`, then by name; names without a `t` last.
    static func precedes(_ lhs: Fixture, _ rhs: Fixture) -> Bool {
        BCFixture.precedes(name: lhs.name, rhs.name)
    }
}

extension BCType {
    /// The kind's name as fixture file names spell it: `viewerCountChanged` → `viewer-count-changed`,
    /// `liveURLShared` → `live-url-shared`.
    var kebabName: String {
        let characters = Array(name)
        var kebab = ""
        for (index, character) in characters.enumerated() {
            if character.isUppercase, index > 0 {
                let afterLower = characters[index - 1].isLowercase
                let endsAcronym = characters[index - 1].isUppercase
                    && index + 1 < characters.count && characters[index + 1].isLowercase
                if afterLower || endsAcronym { kebab += "-" }
            }
            kebab += character.lowercased()
        }
        return kebab
    }
}

/// A fixture shipped in the `BCFixtures` module, made something the replay server can send.
extension BCFixture {
    /// The fixture as something to send: `ReplayServer(schedule: ReplaySchedule(items: [gift.item, end.item]))`.
    public var item: ReplayItem {
        .fixture(name: name, json: String(decoding: bytes, as: UTF8.self),
                 file: (BCFixtures.folder?.path ?? "BCFixtures") + "/" + name + ".json")
    }
}

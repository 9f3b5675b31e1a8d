/// A recent comment of a live as the comments API gives it (`GET /api/live/live_comments?live_id=<id>`, one member
/// of `comments`): not a bcsvr message, so not a `BCResponse`. Its keys are not a t=1 payload's (`lci`, `cm`, `u`,
/// `ac`) but `{id, user_id, user_name, comment, created_at, profile_image_url, badge_image_url, is_moderator,
/// is_continuous_streamer}` (a captured answer: Tests/Peers/api/api-live-comments.json).
///
/// Read as forgivingly as the catalogue reads messages: ids and times as strings or numbers, flags as 0/1, strings
/// or booleans. Only `id` is required. Keys the model does not know are kept by name (`unknownKeys`) for
/// `listen --strict` and `bcstream audit`.
public struct BacklogComment: Hashable, Sendable, Codable {
    /// `id`: numbers the live's comments like a live comment's `lci` (an inference: no capture shows one comment
    /// both ways; docs/DESIGN.md). Used to show a comment once when it also arrives live.
    public var id: String
    /// `user_id`.
    public var userID: String
    /// `user_name`.
    public var userName: String
    /// `comment`, as typed (may hold line breaks).
    public var text: String
    /// `created_at`, Unix seconds.
    public var createdAt: Int?
    /// `profile_image_url`; nil when absent or empty.
    public var profileImageURL: String?
    /// `badge_image_url`; nil when absent or empty.
    public var badgeImageURL: String?
    /// `is_moderator`.
    public var isModerator: Bool
    /// `is_continuous_streamer`: the commenter holds a continuous-streaming badge.
    public var isContinuousStreamer: Bool
    /// The keys of the answer this model does not know, sorted; empty when it knows them all. Not encoded: it
    /// describes the answer, not the comment.
    public var unknownKeys: [String] = []

    private enum CodingKeys: String, CodingKey {
        case id, userID, userName, text, createdAt, profileImageURL, badgeImageURL, isModerator, isContinuousStreamer
    }

    /// The keys read from a backlog comment.
    public static let knownKeys: Set<String> = [
        "id", "user_id", "user_name", "comment", "created_at", "profile_image_url", "badge_image_url", "is_moderator",
        "is_continuous_streamer",
    ]

    /// A comment with `id`; every other field is empty, absent or false unless given.
    public init(id: String, userID: String = "", userName: String = "", text: String = "", createdAt: Int? = nil,
                profileImageURL: String? = nil, badgeImageURL: String? = nil, isModerator: Bool = false,
                isContinuousStreamer: Bool = false, unknownKeys: [String] = []) {
        self.id = id
        self.userID = userID
        self.userName = userName
        self.text = text
        self.createdAt = createdAt
        self.profileImageURL = profileImageURL
        self.badgeImageURL = badgeImageURL
        self.isModerator = isModerator
        self.isContinuousStreamer = isContinuousStreamer
        self.unknownKeys = unknownKeys
    }

    /// Why a member of `comments` is not a backlog comment.
    public enum Problem: Error, Hashable, Sendable, CustomStringConvertible {
        /// The member is not a JSON object.
        case notAnObject
        /// The member has no `id`, or an empty one (an `id` is a string or a number).
        case noID

        public var description: String {
            switch self {
            case .notAnObject: "a member of comments that is not an object"
            case .noID: "a comment without an id (a string or a number)"
            }
        }
    }

    /// Reads one member of `comments`. Linear in its size; unknown keys are listed, not read.
    public init(json: JSONValue) throws(Problem) {
        guard case .object(let members) = json else { throw .notAnObject }
        guard let id = Self.text(members["id"]), !id.isEmpty else { throw .noID }
        self.init(
            id: id,
            userID: Self.text(members["user_id"]) ?? "",
            userName: Self.text(members["user_name"]) ?? "",
            text: Self.text(members["comment"]) ?? "",
            createdAt: Self.integer(members["created_at"]),
            profileImageURL: Self.text(members["profile_image_url"]).flatMap { $0.isEmpty ? nil : $0 },
            badgeImageURL: Self.text(members["badge_image_url"]).flatMap { $0.isEmpty ? nil : $0 },
            isModerator: Self.flag(members["is_moderator"]),
            isContinuousStreamer: Self.flag(members["is_continuous_streamer"]),
            unknownKeys: members.keys.filter { !Self.knownKeys.contains($0) }.sorted())
    }

    /// `name: text`, as a live comment's summary reads.
    public var summary: String { "\(userName): \(text)" }

    /// A string, or a number's digits.
    private static func text(_ value: JSONValue?) -> String? {
        switch value {
        case .string(let text)?: text
        case .number(let digits)?: digits
        default: nil
        }
    }

    /// An integer from a number or a string of digits (a fractional or out-of-range one is nil).
    private static func integer(_ value: JSONValue?) -> Int? {
        switch value {
        case .number(let digits)?, .string(let digits)?: Int(digits)
        default: nil
        }
    }

    /// 0/1 as a number or a string, or a boolean; anything else is false.
    private static func flag(_ value: JSONValue?) -> Bool {
        switch value {
        case .bool(let flag)?: flag
        case .number(let digits)?, .string(let digits)?: (Int(digits) ?? 0) != 0
        default: false
        }
    }
}

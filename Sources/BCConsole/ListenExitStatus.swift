import BCListener

/// The exit statuses of `bcstream listen` when the API gives no live to follow (documented in its --help):
/// 2 nothing to follow, 3 the API refused, 4 its answer is unusable, 5 it could not be reached. (0 is a live
/// followed to its end, 1 a bcsvr connection that failed, 64 wrong usage.)
public enum ListenExitStatus {
    /// The live ended, is private, or the user is not live.
    public static let nothingToFollow: Int32 = 2
    /// The API refused the request (an HTTP error status, a refusal in its answer).
    public static let refused: Int32 = 3
    /// The API's answer could not be used (not JSON, keys missing, too large).
    public static let unusableAnswer: Int32 = 4
    /// The API could not be reached.
    public static let unreachable: Int32 = 5

    /// The exit status for `error`.
    public static func of(_ error: LiveDirectoryError) -> Int32 {
        switch error {
        case .liveEnded, .livePrivate, .userOffline: nothingToFollow
        case .httpStatus, .refused: refused
        case .notJSON, .notAnObject, .missingKeys, .unusableValue, .unusableKey: unusableAnswer
        case .transport(_, .bodyTooLarge): unusableAnswer
        case .transport: unreachable
        }
    }
}

import BCMessages
import Foundation

/// Which of a live's recent comments (the API's backlog) a worker that took the live over stores, to fill the gap
/// between the dead worker's last message and its own first.
///
/// Every comment is stored under `comment-<key>-<id>` (`FleetMessageMaker.commentID`), so JetStream drops one it
/// holds already, but only within its duplicate window (2 minutes from when it was stored). So only comments
/// created within `window` of now are refilled: a comment created that recently was stored (if it was) less than
/// `window` ago, inside the duplicate window, and is not stored twice. A take-over comes `--claim-timeout` (30 s)
/// after the death, so the gap lies well inside the default 100 s; a comment without a time is left out.
public enum BacklogRefill {
    /// The default `window`: the duplicate window less 20 s for the service's clock against ours.
    public static let defaultWindow: Duration = .seconds(100)

    /// The comments of `backlog` (oldest first) created at most `window` before `now`, oldest first.
    public static func comments(_ backlog: [BacklogComment], now: Date, window: Duration = defaultWindow)
        -> [BacklogComment] {
        let oldest = now.timeIntervalSince1970 - Double(window.components.seconds)
        return backlog.filter { comment in comment.createdAt.map { Double($0) >= oldest } ?? false }
    }
}

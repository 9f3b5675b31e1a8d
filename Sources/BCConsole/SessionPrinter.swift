import BCListener
import BCMessages
import Foundation
import Synchronization

/// What the channels' tasks of a `ListenSession` share: the formatter, stdout, the status line, and the counts
/// and connection state under one lock.
final class SessionPrinter: Sendable {
    let output = MessageOutput()
    private let formatter: MessageFormatter
    private let format: MessageFormatter.Format
    private let status = StatusLine()
    private let showKey: Bool
    private let channels: Int
    private let count: Int?

    private struct Shared {
        var outcome = ListenSession.Outcome()
        var reconnects = 0
        var open = Set<String>()
        /// A drop not told yet, by key: `.reconnecting` follows at once and says it again with the retry.
        var heldDrops: [String: String] = [:]
        /// Why the session stops early (`--count`, `--duration`), once one of them is reached.
        var stopReason: String?
        /// The comment ids seen by channel, when live comments already shown are dropped.
        var seen: [String: RecentCommentIDs] = [:]
        var duplicatesDropped = 0
        /// Channels whose reading is paused now (their consumer, stdout, is behind), and those told once.
        var paused = Set<String>()
        var pauseTold = Set<String>()
        var pauses = 0
    }
    private let shared = Mutex(Shared())

    private let dropsSeenComments: Bool

    init(format: MessageFormatter.Format, channels: Int, count: Int?, dropsSeenComments: Bool = false) {
        self.dropsSeenComments = dropsSeenComments
        self.formatter = MessageFormatter(format: format)
        self.format = format
        self.showKey = format == .ndjson || channels > 1
        self.channels = channels
        self.count = count
    }

    var stopping: Bool { shared.withLock { $0.stopReason != nil } }

    func stop(because reason: String) {
        shared.withLock { shared in
            if shared.stopReason == nil { shared.stopReason = reason }
        }
    }

    /// In text with several channels, which channel a line is from: `[118f91f:UdoBre1M] ` (escaped: a key from the
    /// API is not trusted). NDJSON carries the key as a field instead.
    private func channelPrefix(_ key: String?) -> String {
        guard let key, format == .text else { return "" }
        return "[" + TerminalText.escaped(key) + "] "
    }

    /// Handles one event of the channel `key`; false once the session is to stop. `scratch` is the channel's
    /// buffer for NDJSON lines, reused from one message to the next.
    func handle(_ event: BCListenerEvent, key: String, host: String, scratch: inout CanonicalJSONWriter) -> Bool {
        let shownKey = showKey ? key : nil
        // Formatting, the costly part, happens outside the lock.
        var line: MessageLine?
        /// The line is in `scratch`, written out from there.
        var lineInScratch = false
        switch event {
        case .message(let response, _, _, _) where format == .ndjson:
            if formatter.writeNDJSONLine(for: response, key: shownKey, into: &scratch) {
                lineInScratch = true
            } else {
                line = .text(MessageFormatter.encodedLine(for: response, key: shownKey))
            }
        case .message(let response, let raw, _, _):
            line = .text(channelPrefix(shownKey) + formatter.line(for: response, raw: raw, key: shownKey))
        case .undecodable(let error?, let raw, _):
            line = .text(channelPrefix(format == .text ? shownKey : nil)
                         + formatter.line(for: error, raw: raw, key: shownKey))
        case .undecodable(nil, let raw, let reason):
            if format == .ndjson { line = .text(formatter.line(forProblem: reason, raw: raw, key: key)) }
        default:
            break
        }
        let keepGoing = shared.withLock { shared -> Bool in
            guard shared.stopReason == nil else { return false }
            var notes: [String] = []
            if !shared.heldDrops.isEmpty, let drop = shared.heldDrops[key], !event.retries {
                shared.heldDrops[key] = nil
                notes.append(drop)
            }
            switch event {
            case .message(.comment(let comment), _, _, _)
                where dropsSeenComments && !shared.seen[key, default: RecentCommentIDs()].insert(comment.commentID):
                // Shown already (from the backlog, or before a reconnect).
                shared.duplicatesDropped += 1
                line = nil
                lineInScratch = false
            case .message(let response, _, _, _):
                shared.outcome.tally.count(response)
            case .undecodable(.some, _, _):
                shared.outcome.tally.countError()
            case .undecodable(nil, _, let reason):
                notes.append("\(key): \(reason)")
            case .connected:
                shared.open.insert(key)
                notes.append(event.description(host: host))
            case .disconnected:
                // Told with the reconnect that follows it, which names the same cause: one report per drop.
                shared.open.remove(key)
                shared.heldDrops[key] = event.description(host: host)
            case .reconnecting:
                shared.reconnects += 1
                shared.heldDrops[key] = nil
                notes.append(event.description(host: host))
            case .failed:
                shared.outcome.failed = true
                shared.open.remove(key)
                notes.append(event.description(host: host))
            case .readingPaused(let paused):
                // A slow stdout flips this hundreds of times a second: told once per channel, then shown in the
                // status line and counted in the summary.
                if paused {
                    shared.paused.insert(key)
                    shared.pauses += 1
                    if shared.pauseTold.insert(key).inserted {
                        notes.append(event.description(host: host) + " (told once; the status line shows it)")
                    }
                } else {
                    shared.paused.remove(key)
                }
            case .subscribed, .serverError, .recordingFailed, .ended:
                notes.append(event.description(host: host))
            }
            if let count, shared.outcome.tally.messages >= count {
                shared.stopReason = "stopping: --count \(count) reached"
            }
            // Everything this event writes goes out under this lock, in the order it was counted: notes, then the
            // message line, then the status line. Written after the lock, another channel's status line could land
            // between this channel's clear and its message, and share the message's row.
            for text in notes {
                // With several channels, a note says which one it is about ("connected to …" does not).
                note(channels > 1 && !text.contains(key) ? "[" + TerminalText.escaped(key) + "] " + text : text)
            }
            if let line {
                status.clear()  // the status line never shares a row with a message
                output.append(line)
            } else if lineInScratch {
                status.clear()
                scratch.withBytes { output.append(utf8: $0) }
            }
            if status.isDue {
                // State and counts only; the per-kind tally is the final summary's.
                let errors = shared.outcome.tally.errors
                let reconnects = shared.reconnects
                output.flush()
                status.show("\(shared.open.count)/\(channels) connected · \(shared.outcome.tally.messages) messages · "
                    + "\(errors) error\(errors == 1 ? "" : "s")"
                    + (reconnects > 0 ? " · \(reconnects) reconnect\(reconnects == 1 ? "" : "s")" : "")
                    + (shared.paused.isEmpty ? "" : " · reading paused (output behind)"))
            }
            return shared.stopReason == nil
        }
        return keepGoing
    }

    private func note(_ text: String) {
        output.flush()
        status.note(text)
    }

    /// Prints a channel's backlog (oldest first, marked) and remembers its comment ids (a backlog comment's `id`
    /// is taken as the live comment's `lci`); false once the session is to stop. A backlog that could not be
    /// fetched is told, and the live goes on without it; so are members that are not comments and keys the model
    /// does not know.
    func handleBacklog(_ result: Result<BacklogComments, LiveDirectoryError>, key: String) -> Bool {
        let backlog: BacklogComments
        switch result {
        case .failure(let error):
            note(TerminalText.escaped("\(key): no backlog: \(error)"))
            return !stopping
        case .success(let fetched):
            backlog = fetched
        }
        let shownKey = showKey ? key : nil
        let lines = backlog.comments.map { formatter.line(for: $0, key: shownKey) }
        let count = backlog.comments.count
        note("\(key): backlog: \(count) recent comment\(count == 1 ? "" : "s"), oldest first")
        if !backlog.problems.isEmpty {
            note("\(key): backlog: \(backlog.problems.count) left out: \(Set(backlog.problems.map(\.description)).sorted().joined(separator: "; "))")
        }
        let unknown = Set(backlog.comments.flatMap(\.unknownKeys)).sorted()
        if !unknown.isEmpty {
            let shown = unknown.prefix(20).map { TerminalText.excerpt($0, limit: 40) }.joined(separator: ", ")
            note(TerminalText.escaped("\(key): backlog: keys the model does not know: \(shown)"
                + (unknown.count > 20 ? " and \(unknown.count - 20) more" : "")))
        }
        return shared.withLock { shared in
            for comment in backlog.comments { shared.seen[key, default: RecentCommentIDs()].insert(comment.id) }
            status.clear()
            for line in lines { output.append(line) }
            output.flush()
            return shared.stopReason == nil
        }
    }

    /// The last words: what stopped the session, drops not told yet, the counts.
    func finish() -> ListenSession.Outcome {
        output.flush()
        let (outcome, drops, stopReason, pauses, duplicates) = shared.withLock {
            ($0.outcome, $0.heldDrops, $0.stopReason, $0.pauses, $0.duplicatesDropped)
        }
        if let stopReason { status.note(stopReason) }
        if duplicates > 0 {
            status.note("dropped \(duplicates) live comment\(duplicates == 1 ? "" : "s") already shown (same lci)")
        }
        if pauses > 0 {
            status.note("reading paused \(pauses) time\(pauses == 1 ? "" : "s") while the output was behind (TCP held the server back; nothing was lost)")
        }
        for drop in drops.values.sorted() { status.note(drop) }
        status.finish("\(outcome.tally.summary)")
        return outcome
    }
}

private extension BCListenerEvent {
    /// A retry, whose line names the cause of the drop before it.
    var retries: Bool {
        if case .reconnecting = self { true } else { false }
    }
}

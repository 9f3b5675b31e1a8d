import BCListener
import BCMessages
import Foundation
import Synchronization

/// Runs one or more channel listeners at once and prints what they report: messages on stdout (as
/// `decode` prints them), the connection state and counts on stderr. Shared by `listen` and `demo`.
struct ListenSession {
    let listeners: [ChannelListener]
    let format: MessageFormatter.Format
    /// Stop after this many messages, all channels together.
    let count: Int?
    /// Stop after this long.
    let duration: Duration?

    struct Outcome {
        /// Some channel stopped for good on an error (fatal status, attempts exhausted).
        var failed = false
        var tally = DecodeTally()
    }

    private enum Report: Sendable {
        /// `handled` is resumed once the event is printed: the listener takes its next event only then, so its
        /// flow control (`maxHeldMessages`) bounds what waits for stdout.
        case event(key: String, host: String, BCListenerEvent, handled: CheckedContinuation<Void, Never>)
        case finished(key: String)
        case timeUp
    }

    func run() async -> Outcome {
        let formatter = MessageFormatter(format: format)
        let status = StatusLine()
        var outcome = Outcome()
        var reconnects = 0
        var open = Set<String>()
        let showKey = format == .ndjson || listeners.count > 1

        await withTaskGroup(of: Void.self) { group in
            let (reports, feed) = AsyncStream.makeStream(of: Report.self)
            for listener in listeners {
                let key = listener.configuration.key
                let host = listener.configuration.host
                group.addTask {
                    for await event in listener {
                        await withCheckedContinuation { handled in
                            feed.yield(.event(key: key, host: host, event, handled: handled))
                        }
                    }
                    feed.yield(.finished(key: key))
                }
            }
            if let duration {
                group.addTask {
                    try? await Task.sleep(for: duration)
                    feed.yield(.timeUp)
                }
            }
            var running = listeners.count
            var pending = reports.makeAsyncIterator()
            reading: while let report = await pending.next() {
                switch report {
                case .timeUp:
                    status.note("stopping: --duration reached")
                    break reading
                case .finished:
                    running -= 1
                    if running == 0 { break reading }
                    continue
                case .event(let key, let host, let event, let handled):
                    defer { handled.resume() }
                    let shownKey = showKey ? key : nil
                    switch event {
                    case .message(let response, let raw, _, _):
                        outcome.tally.count(response)
                        status.clear()
                        writeLine(formatter.line(for: response, raw: raw, key: shownKey))
                    case .undecodable(let error?, let raw, _):
                        outcome.tally.countError()
                        status.clear()
                        writeLine(formatter.line(for: error, raw: raw, key: shownKey))
                    case .undecodable(nil, let raw, let reason):
                        status.note("\(key): \(reason)")
                        if format == .ndjson {
                            status.clear()
                            writeLine(formatter.line(forProblem: reason, raw: raw, key: key))
                        }
                    case .connected:
                        open.insert(key)
                        status.note(event.description(host: host))
                    case .disconnected:
                        open.remove(key)
                        status.note(event.description(host: host))
                    case .reconnecting:
                        reconnects += 1
                        status.note(event.description(host: host))
                    case .failed:
                        outcome.failed = true
                        open.remove(key)
                        status.note(event.description(host: host))
                    case .subscribed, .serverError, .recordingFailed, .ended, .readingPaused:
                        status.note(event.description(host: host))
                    }
                    // State and counts only; the per-kind tally is the final summary's.
                    let errors = outcome.tally.errors
                    status.show("\(open.count)/\(listeners.count) connected · \(outcome.tally.messages) messages · "
                        + "\(errors) error\(errors == 1 ? "" : "s")"
                        + (reconnects > 0 ? " · \(reconnects) reconnect\(reconnects == 1 ? "" : "s")" : ""))
                    if let count, outcome.tally.messages >= count {
                        status.note("stopping: --count \(count) reached")
                        break reading
                    }
                }
            }
            group.cancelAll()
            // Let every listener see its cancellation: an event it is waiting to hand over is released unprinted.
            while running > 0, let report = await pending.next() {
                switch report {
                case .event(_, _, _, let handled): handled.resume()
                case .finished: running -= 1
                case .timeUp: break
                }
            }
            feed.finish()
        }
        status.finish("\(outcome.tally.summary)")
        return outcome
    }
}

/// The status shown on stderr: on a terminal one line rewritten in place, with notes printed above it;
/// elsewhere (a log, CI) only the notes, one per line.
///
/// Notes go through `reportLine`: they quote what the server sent (unknown commands, `ERR` text, the key of a
/// `MSG` for another channel, close reasons), which must neither break the line nor drive the terminal. The
/// status and the final counts are escaped too, but never cut.
///
/// The status line never shares a row with anything: it is erased before each note and before each line written
/// to stdout (`clear()`), cut to the terminal's width so it never wraps, and redrawn at most ten times a second.
final class StatusLine: Sendable {
    private let isTerminal = isatty(STDERR_FILENO) == 1
    private struct Shown {
        var visible = false
        var lastDrawn: ContinuousClock.Instant?
    }
    private let shown = Mutex(Shown())

    func note(_ text: String) {
        let text = reportLine(text)
        clear()
        write("\(text)\n")
    }

    /// Erases the status line, so that what follows (a message on stdout, a note) starts at column 0.
    func clear() {
        guard isTerminal else { return }
        let visible = shown.withLock { shown in
            defer { shown.visible = false; shown.lastDrawn = nil }
            return shown.visible
        }
        if visible { write("\r\u{1B}[K") }
    }

    func show(_ text: String) {
        guard isTerminal else { return }
        let now = ContinuousClock.now
        let draw = shown.withLock { shown in
            if let last = shown.lastDrawn, shown.visible, now - last < .milliseconds(100) { return false }
            shown.visible = true
            shown.lastDrawn = now
            return true
        }
        if draw { write("\r\u{1B}[K\(Self.fitted(TerminalText.escaped(text)))") }
    }

    /// `text` cut to one scalar less than the terminal's width (a line filling the last column wraps on some
    /// terminals), with "…" where it was cut.
    private static func fitted(_ text: String) -> String {
        var size = winsize()
        let columns = ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0 && size.ws_col > 0 ? Int(size.ws_col) : 80
        let room = max(10, columns - 1)
        var width = 0
        var result = ""
        for scalar in text.unicodeScalars {
            // East Asian wide characters and emoji take two columns.
            let cells = scalar.value >= 0x1100 && scalar.properties.isEmojiPresentation || (0x2E80...0xFFDC).contains(scalar.value) ? 2 : 1
            if width + cells > room - 1 { return result + "…" }
            width += cells
            result.unicodeScalars.append(scalar)
        }
        return result
    }

    func finish(_ text: String) {
        let text = TerminalText.escaped(text)
        clear()
        write("\(text)\n")
    }

    private func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}

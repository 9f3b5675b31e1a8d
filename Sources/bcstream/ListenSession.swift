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
        /// A drop not told yet, by key: `.reconnecting` follows at once and says it again with the retry.
        var heldDrops: [String: String] = [:]
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
                    if let drop = heldDrops[key], !event.retries {
                        heldDrops[key] = nil
                        status.note(drop)
                    }
                    let shownKey = showKey ? key : nil
                    switch event {
                    case .message(let response, let raw, _, _):
                        outcome.tally.count(response)
                        status.clear()
                        writeMessageLine(formatter.line(for: response, raw: raw, key: shownKey))
                    case .undecodable(let error?, let raw, _):
                        outcome.tally.countError()
                        status.clear()
                        writeMessageLine(formatter.line(for: error, raw: raw, key: shownKey))
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
                        // Told with the reconnect that follows it, which names the same cause: one report per drop.
                        open.remove(key)
                        heldDrops[key] = event.description(host: host)
                        continue
                    case .reconnecting:
                        reconnects += 1
                        heldDrops[key] = nil
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
        for drop in heldDrops.values.sorted() { status.note(drop) }
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

import BCListener
import BCMessages
import Foundation
import Synchronization

/// Runs one or more channel listeners at once and prints what they report: messages on stdout (as
/// `decode` prints them), the connection state and counts on stderr. Shared by `listen` and `demo`.
public struct ListenSession: Sendable {
    /// The channels, one listener each.
    public let listeners: [ChannelListener]
    /// How messages are printed on stdout.
    public let format: MessageFormatter.Format
    /// Stop after this many messages, all channels together.
    public let count: Int?
    /// Stop after this long.
    public let duration: Duration?
    /// Sees every event of every channel, with its key, before it is printed (`listen --audit`).
    public var onEvent: (@Sendable (BCListenerEvent, String) -> Void)? = nil
    /// Fetches a channel's recent comments (`--backlog`), called once per channel when it is first subscribed,
    /// while its live messages wait in the listener's queue; nil for none. With it, a live comment whose `lci`
    /// was already shown is dropped.
    public var backlog: BacklogSource?
    /// Makes, for each channel (its number from 0 in `listeners`, its key), what every event of that channel is
    /// handed to before it is printed, awaited (`--publish`: the fleet's publisher, whose full buffer holds the
    /// channel's reader back, and so the channel's socket); nil for none. Called once per channel, in the
    /// channel's task, so the forwarder may keep a count of its own.
    public var forwarder: (@Sendable (_ channel: Int, _ key: String) -> Forward)? = nil

    /// Fetches a channel's recent comments (`--backlog`).
    public typealias BacklogSource = @Sendable (_ key: String) async -> Result<BacklogComments, LiveDirectoryError>
    /// Takes every event of one channel, in order.
    public typealias Forward = (BCListenerEvent) async -> Void

    /// How a session ended.
    public struct Outcome: Sendable {
        /// Some channel stopped for good on an error (fatal status, attempts exhausted).
        public var failed = false
        /// The messages and errors counted, all channels together.
        public var tally = DecodeTally()
    }

    /// A session of `listeners`, printed in `format`, that stops after `count` messages or `duration`, if given.
    public init(listeners: [ChannelListener], format: MessageFormatter.Format, count: Int?, duration: Duration?) {
        self.listeners = listeners
        self.format = format
        self.count = count
        self.duration = duration
    }

    /// Each channel is read by a task of its own, which formats its messages and appends them to the shared,
    /// buffered stdout (`MessageOutput`): no hop through a central loop per message, and channels format on
    /// as many cores as there are. The status line and the counts are shared under a lock; stdout is flushed
    /// when a channel has nothing more waiting, and before every note on stderr, so the two stay in order.
    ///
    /// Without a backlog or a forwarder (both await in the channel's task), and when stdout cannot hold a writer
    /// up (a terminal, a file, /dev/null: `MessageOutput.neverHoldsUp`), each channel is run where its frames
    /// arrive instead (`ChannelListener.run(handler:)`): its messages are formatted and written on the loop's
    /// thread, so a message that arrives alone costs one wake-up, not two (`runWhereFramesArrive()`). Into a pipe
    /// or a socket, which a slow reader fills, the channels' tasks keep the loop free: reading pauses (TCP pushes
    /// back on the server, stderr says so) while the loop still answers pings.
    public func run() async -> Outcome {
        if backlog == nil, forwarder == nil, MessageOutput.neverHoldsUp { return await runWhereFramesArrive() }
        let printer = SessionPrinter(format: format, channels: listeners.count, count: count,
                                     dropsSeenComments: backlog != nil)
        let backlog = backlog
        let forwarder = forwarder
        let onEvent = onEvent
        await runChannels(printer: printer) { index, listener in
            let key = listener.configuration.key.text
            let host = listener.configuration.host
            var events = listener.makeAsyncIterator()
            var backlogFetched = backlog == nil
            // This channel's NDJSON lines are written here, one buffer for all of them.
            var scratch = CanonicalJSONWriter(capacity: 4096)
            let forward = forwarder?(index, key)
            while let event = await events.next() {
                onEvent?(event, key)
                if let forward { await forward(event) }
                var keepGoing = printer.handle(event, key: key, host: host, scratch: &scratch)
                if keepGoing, !backlogFetched, case .subscribed = event, let backlog {
                    backlogFetched = true
                    keepGoing = printer.handleBacklog(await backlog(key), key: key)
                }
                if !events.moreAreWaiting { printer.output.flushSoon() }
                if !keepGoing { break }
            }
        }
        return printer.finish()
    }

    /// Runs `channel` for every listener at once (each with its index), and the clock (`duration`): a channel that
    /// stops the session (the count) or the clock ends it, and the channels still running are cancelled (their
    /// listeners leave politely). It also ends when every channel has.
    func runChannels(printer: SessionPrinter,
                     _ channel: @escaping @Sendable (Int, ChannelListener) async -> Void) async {
        let channels = listeners.count
        await withTaskGroup(of: Bool.self) { group in
            for (index, listener) in listeners.enumerated() {
                group.addTask {
                    await channel(index, listener)
                    return true
                }
            }
            if let duration {
                group.addTask {
                    do {
                        try await Task.sleep(for: duration)
                    } catch {
                        return false  // every channel ended first
                    }
                    printer.stop(because: "stopping: --duration reached")
                    return false
                }
            }
            var running = channels
            while let wasChannel = await group.next() {
                if wasChannel { running -= 1 }
                if running == 0 || printer.stopping { group.cancelAll() }
            }
        }
    }
}

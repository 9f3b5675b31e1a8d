import BCListener
import BCMessages
import Synchronization

extension ListenSession {
    /// The session with each channel run where its frames arrive: every event is printed by the thread that read
    /// its frame (the loop's), and stdout is written within `MessageOutput.flushDelay` of it. The clock
    /// (`duration`) and the count stop it as they stop `run()`'s channels: the channels still running are
    /// cancelled and leave politely.
    func runWhereFramesArrive() async -> Outcome {
        let printer = SessionPrinter(format: format, channels: listeners.count, count: count)
        let onEvent = onEvent
        await runChannels(printer: printer) { _, listener in
            let key = listener.configuration.key.text
            let host = listener.configuration.host
            let scratch = ChannelScratch()
            await listener.run { event in
                onEvent?(event, key)
                let keepGoing = scratch.withWriter { printer.handle(event, key: key, host: host, scratch: &$0) }
                printer.output.flushSoon()
                return keepGoing && !printer.stopping
            }
        }
        return printer.finish()
    }
}

/// One channel's NDJSON writer, reused by every event of the channel.
///
/// `@unchecked Sendable`: `ChannelListener.run(handler:)` calls a channel's handler for one event at a time, never
/// twice at once, so `writer` is only ever used by one thread at a time, each call ordered after the last by the
/// driver's lock.
private final class ChannelScratch: @unchecked Sendable {
    private var writer = CanonicalJSONWriter(capacity: 4096)

    func withWriter<Result>(_ body: (inout CanonicalJSONWriter) -> Result) -> Result {
        body(&writer)
    }
}

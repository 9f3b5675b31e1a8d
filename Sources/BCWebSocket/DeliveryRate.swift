/// Whether a client loop is busy enough for its reads to be coalesced (`ServiceCore.readCoalescing`): at least
/// `busyPerWindow` messages delivered in the last `window`, judged afresh at the end of each window.
///
/// A loop at the rate of a request and its answer (one message in flight, some 10,000 a second) or below is never
/// busy, so nothing it delivers waits; a loop receiving tens of thousands of messages a second from one link or
/// from a thousand is.
struct DeliveryRate {
    static let window = Duration.milliseconds(10)
    /// 50,000 messages a second.
    static let busyPerWindow = 500

    private var count = 0
    private var windowStart = ContinuousClock.now
    private var busy = false

    /// Counts `messages` more, delivered by `now`; true while the loop is busy.
    mutating func isBusy(adding messages: Int, now: ContinuousClock.Instant) -> Bool {
        count += messages
        if now - windowStart >= Self.window {
            busy = count >= Self.busyPerWindow
            count = 0
            windowStart = now
        }
        return busy
    }
}

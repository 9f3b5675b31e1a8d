import BCListener
import BCMessages
import Foundation

/// A generator that always returns the same value, so the jitter is known: `.middle` gives no jitter at all.
struct FixedGenerator: RandomNumberGenerator, Sendable {
    var value: UInt64
    func next() -> UInt64 { value }

    /// Jitter factor 1: every delay is its base delay.
    static let middle = FixedGenerator(value: 1 << 63)
    /// The shortest delays: base × (1 - jitter).
    static let lowest = FixedGenerator(value: 0)
    /// The longest delays: just under base × (1 + jitter).
    static let highest = FixedGenerator(value: .max)
}

/// SplitMix64: a seeded generator, so "many random values" are the same on every run.
struct SplitMix64: RandomNumberGenerator, Sendable {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

enum Sample {
    static let key = "118f91f:UdoBre1M"
    // A literal known to be a channel key (ChannelKeyTests checks the rule itself).
    static let channelKey = try! ChannelKey(key)
    static let host = "online.mirrativ.com"
    static let url = URL(string: "wss://online.mirrativ.com/")!
    static let receivedAt = Date(timeIntervalSince1970: 1_700_000_000)

    static func configuration(_ change: (inout BCListenerConfiguration) -> Void = { _ in }) -> BCListenerConfiguration {
        var configuration = BCListenerConfiguration(key: channelKey, url: url)
        change(&configuration)
        return configuration
    }

    /// A `MSG` line of the sample channel.
    static func msg(_ json: String, key: String = key) -> String { "MSG\t\(key)\t\(json)" }

    static func decoded(_ json: String, mode: BCMessageDecoder.Mode = .lenient) -> BCResponse {
        try! BCMessageDecoder(mode: mode).decode(json)
    }
}

/// Drives a machine through its events, with the time in seconds for readability.
struct Session {
    var machine: BCSessionStateMachine

    init(_ configuration: BCListenerConfiguration = Sample.configuration(),
         generator: some RandomNumberGenerator & Sendable = FixedGenerator.middle) {
        machine = BCSessionStateMachine(configuration: configuration, generator: generator)
    }

    @discardableResult
    mutating func on(_ event: BCSessionStateMachine.Event, at seconds: Double) -> [BCSessionStateMachine.Action] {
        machine.handle(event, at: .seconds(seconds))
    }

    @discardableResult
    mutating func frame(_ text: String, at seconds: Double) -> [BCSessionStateMachine.Action] {
        on(.frameReceived(text, receivedAt: Sample.receivedAt), at: seconds)
    }

    /// Started and open at `seconds`.
    static func open(_ configuration: BCListenerConfiguration = Sample.configuration(), at seconds: Double = 0,
                     generator: some RandomNumberGenerator & Sendable = FixedGenerator.middle) -> Session {
        var session = Session(configuration, generator: generator)
        session.on(.start, at: seconds)
        session.on(.connectionOpened, at: seconds)
        return session
    }
}

extension BCSessionStateMachine.Action {
    /// The event of an `.emit`, nil for any other action.
    var event: BCListenerEvent? {
        if case .emit(let event) = self { event } else { nil }
    }
}

extension Array where Element == BCSessionStateMachine.Action {
    var events: [BCListenerEvent] { compactMap(\.event) }
}

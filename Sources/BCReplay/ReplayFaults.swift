/// Faults the replay server can inject, to test (or debug) how a client survives a bad network. Every
/// fault is announced on the server's activity stream when it happens.
public struct ReplayFaults: Hashable, Sendable {
    /// Close a subscriber's connection after sending it this many messages. Each connection is dropped
    /// after that many; the channel's playback pauses until the client subscribes again, then resumes
    /// where it stopped, so nothing is lost or sent twice.
    public var dropAfter: Int?
    /// The close code of a drop (1001, going away, unless told otherwise; 1011 mimics a server error).
    /// libwebsockets 4.1.6 clients take 1012 and 1013 for protocol errors (1002).
    public var dropCode: UInt16
    /// Stop answering a subscriber after sending it this many messages: no `ACK` to `PING`, no pong to
    /// WebSocket pings, the TCP connection left open. Playback pauses until a client subscribes again.
    public var stallAfter: Int?
    /// Before the first message of each channel, send one message this many bytes long (a comment
    /// padded with spaces): a client whose limit is lower closes with 1009 and reconnects. The playback
    /// starts once that client has left (or after two seconds), so the fault costs no message.
    public var oversizedBytes: Int?
    /// Split every message into this many WebSocket frames (1: unfragmented).
    public var fragments: Int
    /// Play each channel on, from its first subscription, while nobody is subscribed, as a live service does:
    /// what is sent meanwhile is lost, and a client that subscribes again hears the channel from where it is now
    /// (false: the playback waits for a subscriber and nothing is lost). A fleet drill needs it to lose what a
    /// real live would while no worker holds it.
    public var broadcast: Bool

    /// No fault at all unless told otherwise; a drop closes with 1001 and messages go unfragmented.
    public init(dropAfter: Int? = nil, dropCode: UInt16 = 1001, stallAfter: Int? = nil, oversizedBytes: Int? = nil,
                fragments: Int = 1, broadcast: Bool = false) {
        self.dropAfter = dropAfter
        self.dropCode = dropCode
        self.stallAfter = stallAfter
        self.oversizedBytes = oversizedBytes
        self.fragments = fragments
        self.broadcast = broadcast
    }

    /// The oversized message: a valid t=1 comment whose text fills it up to `bytes`.
    static func oversizedMessage(bytes: Int) -> String {
        let frame = #"{"t":1,"u":"100000000","ac":"replay","lci":"0","cm":""}"#
        let padding = String(repeating: " ", count: max(0, bytes - frame.utf8.count))
        return #"{"t":1,"u":"100000000","ac":"replay","lci":"0","cm":""# + padding + #""}"#
    }
}

/// A message a connection refused, and closed over: larger than `maxMessageSize` (closed with 1009) or text
/// that is not UTF-8 (closed with 1007). Reported before the close, so that a recording keeps what arrived.
public struct RefusedMessage: Sendable, Hashable, CustomStringConvertible {
    /// Why the message was refused.
    public enum Reason: Sendable, Hashable {
        /// It grew past this many bytes.
        case tooBig(limit: Int)
        /// A text message whose bytes are not UTF-8.
        case invalidUTF8
    }

    /// Why it was refused.
    public var reason: Reason
    /// The frame type: binary, or text.
    public var binary: Bool
    /// Its size as far as it arrived: for invalid UTF-8, the bytes received up to the chunk holding the first bad
    /// byte (it is refused there, the rest is never kept); for a message too big, the bytes received up to the
    /// refusal plus what the current frame header still announced (the rest was never read).
    public var size: Int
    /// Its first bytes, at most 64 KiB: of invalid UTF-8, up to and including the chunk with the first bad byte.
    public var prefix: [UInt8]

    /// A message refused for `reason`, of which `size` bytes arrived and `prefix` were kept.
    public init(reason: Reason, binary: Bool, size: Int, prefix: [UInt8]) {
        self.reason = reason
        self.binary = binary
        self.size = size
        self.prefix = prefix
    }

    /// True when `prefix` is not the whole message.
    public var truncated: Bool { prefix.count < size }

    /// What happened, for a person: "a text message of at least 2000000 bytes, over the 1048576-byte limit".
    public var description: String {
        let kind = binary ? "binary" : "text"
        switch reason {
        case .tooBig(let limit):
            return "a \(kind) message of at least \(size) bytes, over the \(limit)-byte limit"
        case .invalidUTF8:
            return "a text message that is not valid UTF-8 within its first \(size) bytes"
        }
    }
}

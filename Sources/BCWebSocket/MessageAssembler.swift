/// Reassembles the chunks lws hands to a RECEIVE callback into whole messages, with a hard cap:
/// lws has no message-size limit of its own, so memory stays bounded only if we stop here.
///
/// lws delivers a message as one or more chunks (a frame larger than the rx buffer, several
/// continuation frames, or the output of permessage-deflate). `final` marks the last chunk
/// (`lws_is_final_fragment` already accounts for bytes still pending in the current frame); the
/// chunk after a final one starts the next message, and its frame type is the message's type.
///
/// A message that passes the cap is reported once (`.tooBig`, with its first `keptPrefix` bytes for the
/// recording), and the rest of it is counted and dropped (`.discarding`) until its final chunk: memory
/// never holds more than `limit` bytes, whatever the peer sends.
///
/// A text message's UTF-8 is checked chunk by chunk as it arrives (`UTF8Validator`, which carries a character cut
/// between chunks or frames): the chunk with the first bad byte refuses it (`.invalidUTF8`), however much of the
/// message is still to come, and a `.message` that is text is valid UTF-8.
struct MessageAssembler {
    enum Outcome: Equatable {
        /// More chunks are needed.
        case partial
        /// A whole message (valid UTF-8 when it is text).
        case message(binary: Bool, bytes: [UInt8])
        /// The text message is not UTF-8: the chunk that made it so ends it. `received` bytes of it came, the first
        /// of them in `prefix`. What follows of it is dropped.
        case invalidUTF8(received: Int, prefix: [UInt8])
        /// The message passed `limit`: `received` bytes so far, the first of them in `prefix`. What follows of
        /// it is dropped.
        case tooBig(limit: Int, binary: Bool, received: Int, prefix: [UInt8])
        /// A chunk of a message already reported too big, dropped; `received` counts all of it so far.
        case discarding(received: Int)
    }

    /// How much of a refused message is kept for the recording.
    static let keptPrefix = 64 * 1024

    let limit: Int
    private var buffer: [UInt8] = []
    private var isBinary = false
    private var inMessage = false
    private var utf8 = UTF8Validator()
    /// Bytes of the refused message counted so far; nil unless one is being discarded.
    private var discarded: Int?

    init(limit: Int) {
        self.limit = max(0, limit)
    }

    /// Bytes of the message in progress held so far (0 between messages and while discarding).
    var heldBytes: Int { inMessage && discarded == nil ? buffer.count : 0 }

    /// No message is in progress: the next chunk starts one.
    var isBetweenMessages: Bool { !inMessage && discarded == nil }

    /// Whether a message is being discarded after `.tooBig`.
    var isDiscarding: Bool { discarded != nil }

    /// Refuses the message in progress before its bytes arrive, because its frame header already announced
    /// more than the cap (lws passes nothing on until its rx buffer fills, which a trickling peer can put off
    /// for days): what is held is returned for the report, and the rest of the message is dropped.
    mutating func refuseAhead() -> (held: Int, prefix: [UInt8]) {
        let held = heldBytes
        let prefix = Array(buffer.prefix(Self.keptPrefix))
        buffer = []
        inMessage = true
        discarded = held
        return (held, prefix)
    }

    mutating func append(_ chunk: UnsafeRawBufferPointer, final: Bool, binary: Bool) -> Outcome {
        if let count = discarded {
            let received = count + chunk.count
            discarded = final ? nil : received
            if final { inMessage = false }
            return .discarding(received: received)
        }
        if !inMessage {
            inMessage = true
            isBinary = binary
            utf8 = UTF8Validator()
            buffer.removeAll(keepingCapacity: buffer.capacity <= 64 * 1024)
        }
        if !isBinary, !utf8.validate(chunk) || (final && !utf8.isComplete) {
            return refuse(chunk, final: final) { .invalidUTF8(received: $0, prefix: $1) }
        }
        guard buffer.count + chunk.count <= limit else {
            return refuse(chunk, final: final) { [limit, isBinary] in
                .tooBig(limit: limit, binary: isBinary, received: $0, prefix: $1)
            }
        }
        buffer.append(contentsOf: chunk)
        guard final else { return .partial }
        inMessage = false
        let message = buffer
        buffer = []
        return .message(binary: isBinary, bytes: message)
    }

    /// Ends the message in progress with `chunk`: what `outcome` reports from the bytes received and their first
    /// `keptPrefix`; the rest of the message is dropped.
    private mutating func refuse(_ chunk: UnsafeRawBufferPointer, final: Bool,
                                 _ outcome: (_ received: Int, _ prefix: [UInt8]) -> Outcome) -> Outcome {
        let received = buffer.count + chunk.count
        var prefix = Array(buffer.prefix(Self.keptPrefix))
        prefix.append(contentsOf: chunk.prefix(Self.keptPrefix - prefix.count))
        buffer = []
        if final {
            inMessage = false
        } else {
            discarded = received
        }
        return outcome(received, prefix)
    }
}

/// Reassembles the chunks lws hands to a RECEIVE callback into whole messages, with a hard cap:
/// lws has no message-size limit of its own, so memory stays bounded only if we stop here.
///
/// lws delivers a message as one or more chunks (a frame larger than the rx buffer, several
/// continuation frames, or the output of permessage-deflate). `final` marks the last chunk
/// (`lws_is_final_fragment` already accounts for bytes still pending in the current frame); the
/// chunk after a final one starts the next message, and its frame type is the message's type.
struct MessageAssembler {
    enum Outcome: Equatable {
        /// More chunks are needed.
        case partial
        /// A whole message.
        case message(binary: Bool, bytes: [UInt8])
        /// The message passed `limit`; nothing more should be fed.
        case tooBig(limit: Int)
    }

    let limit: Int
    private var buffer: [UInt8] = []
    private var isBinary = false
    private var inMessage = false

    init(limit: Int) {
        self.limit = max(0, limit)
    }

    mutating func append(_ chunk: UnsafeRawBufferPointer, final: Bool, binary: Bool) -> Outcome {
        if !inMessage {
            inMessage = true
            isBinary = binary
            buffer.removeAll(keepingCapacity: buffer.capacity <= 64 * 1024)
        }
        guard buffer.count + chunk.count <= limit else {
            buffer = []
            inMessage = false
            return .tooBig(limit: limit)
        }
        buffer.append(contentsOf: chunk)
        guard final else { return .partial }
        inMessage = false
        let message = buffer
        buffer = []
        return .message(binary: isBinary, bytes: message)
    }
}

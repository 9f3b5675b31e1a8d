/// Reassembles the chunks lws hands to a RECEIVE callback into whole messages, with a hard cap:
/// lws has no message-size limit of its own, so memory stays bounded only if we stop here.
///
/// lws delivers a message as one or more chunks (a frame larger than the rx buffer, or several
/// continuation frames, or the output of permessage-deflate): `first` marks the first chunk of a
/// message and `final` the last one (lws' `lws_is_final_fragment` already accounts for bytes still
/// pending in the current frame).
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

    init(limit: Int) {
        self.limit = max(0, limit)
    }

    mutating func append(_ chunk: UnsafeRawBufferPointer, first: Bool, final: Bool, binary: Bool) -> Outcome {
        if first {
            buffer.removeAll(keepingCapacity: buffer.capacity <= 64 * 1024)
            isBinary = binary
        }
        guard buffer.count + chunk.count <= limit else {
            buffer = []
            return .tooBig(limit: limit)
        }
        buffer.append(contentsOf: chunk)
        guard final else { return .partial }
        let message = buffer
        buffer = []
        return .message(binary: isBinary, bytes: message)
    }
}

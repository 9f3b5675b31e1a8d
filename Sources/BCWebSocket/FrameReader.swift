/// Reads the frames the peer sends (RFC 6455 5.2) from the bytes as they arrive, in chunks of any size and cut
/// anywhere. Both roles read their own frames rather than through libwebsockets' parser, which takes a function
/// call and a dozen checks per byte (a third of `listen`'s CPU on 540-byte messages), answers pings only when no
/// pong is pending, and fails a bad frame before what came just before it was answered (DESIGN, "The client reads
/// its own frames", "The server reads its own frames").
///
/// The role decides the mask (RFC 6455 5.1): a client reads a server's frames, which are never masked; a server
/// reads a client's, which always are, and unmasks each payload in place, in the chunk it arrived in. A data
/// frame's payload is handed on as slices of that chunk, never copied here; a control frame (at most 125 bytes) is
/// collected whole. Every rule the peer can break (the mask, reserved bits, an unknown opcode, a fragmented or
/// oversized control frame, a continuation out of place, a length with its top bit set) ends the reading with
/// `.violation`, and nothing after it is read. The reader holds no more than one control payload and one 14-byte
/// header, whatever the peer sends; what a data message may grow to is the caller's cap, told by
/// `.dataFrame(announced:)` before any of its payload.
struct FrameReader {
    /// Which side of the connection reads.
    enum Role {
        /// Reads a server's frames: none may be masked.
        case client
        /// Reads a client's frames: every one must be masked.
        case server
    }

    enum Event: Equatable {
        /// A data frame's header: `announced` payload bytes follow (`messageIsBinary` and `messageIsCompressed`
        /// describe the message it belongs to).
        case dataFrame(announced: Int)
        /// Payload of the current data frame, unmasked. `endsMessage`: the last bytes of the message's final frame.
        case payload(UnsafeRawBufferPointer, endsMessage: Bool)
        /// A whole control frame: 0x8 close, 0x9 ping, 0xA pong.
        case control(opcode: UInt8, payload: [UInt8])
        /// The peer broke the protocol (close with 1002); nothing more is read.
        case violation(String)

        static func == (lhs: Event, rhs: Event) -> Bool {
            switch (lhs, rhs) {
            case (.dataFrame(let a), .dataFrame(let b)): a == b
            case (.payload(let a, let x), .payload(let b, let y)): x == y && a.elementsEqual(b)
            case (.control(let a, let x), .control(let b, let y)): a == b && x == y
            case (.violation(let a), .violation(let b)): a == b
            default: false
            }
        }
    }

    /// Where the reader is in the stream. `mask` is the key for the next payload byte (`FrameMask`), 0 for the
    /// client, whose frames carry none.
    private enum State {
        /// Between frames, or inside a header cut between chunks (its bytes in `header`).
        case header
        /// Inside a data frame's payload: `remaining` bytes to come; `final` when the frame ends its message.
        case data(remaining: Int, final: Bool, mask: UInt32)
        /// Inside a control frame's payload, collected in `controlPayload`.
        case control(opcode: UInt8, remaining: Int, mask: UInt32)
        /// The peer broke a rule: nothing more is read.
        case failed
    }

    let role: Role
    /// permessage-deflate was agreed: RSV1 may mark a message's first frame as compressed.
    let deflate: Bool
    private var state = State.header
    /// Header bytes of a header cut between chunks (at most 14: 10 and a mask key).
    private var header: [UInt8] = []
    /// A data message's first frame came without FIN and its final frame has not.
    private(set) var inFragmentedMessage = false
    private(set) var messageIsBinary = false
    private(set) var messageIsCompressed = false
    private var controlPayload: [UInt8] = []

    init(role: Role, deflate: Bool) {
        self.role = role
        self.deflate = deflate
    }

    /// Payload bytes of the current frame not read yet.
    var remainingInFrame: Int {
        switch state {
        case .data(let remaining, _, _), .control(_, let remaining, _): remaining
        case .header, .failed: 0
        }
    }

    /// Whether a data message is being read (between its first header and its last payload byte).
    var isInsideMessage: Bool {
        if case .data = state { return true }
        return inFragmentedMessage
    }

    /// The next event from `bytes[offset...]`, advancing `offset` past what it used; nil when the bytes are used
    /// up (or after a violation). The server role unmasks payloads in `bytes`, in place.
    mutating func next(in bytes: UnsafeMutableRawBufferPointer, at offset: inout Int) -> Event? {
        while true {
            switch state {
            case .failed:
                return nil
            case .data(let remaining, let final, let mask):
                let take = min(remaining, bytes.count - offset)
                if take == 0, remaining > 0 { return nil }
                let slice = UnsafeMutableRawBufferPointer(rebasing: bytes[offset..<offset + take])
                let next = role == .server ? FrameMask.apply(mask, to: slice) : mask
                offset += take
                if take == remaining {
                    state = .header
                    return .payload(UnsafeRawBufferPointer(slice), endsMessage: final)
                }
                state = .data(remaining: remaining - take, final: final, mask: next)
                return .payload(UnsafeRawBufferPointer(slice), endsMessage: false)
            case .control(let opcode, let remaining, let mask):
                let take = min(remaining, bytes.count - offset)
                let slice = UnsafeMutableRawBufferPointer(rebasing: bytes[offset..<offset + take])
                let next = role == .server ? FrameMask.apply(mask, to: slice) : mask
                controlPayload.append(contentsOf: slice)
                offset += take
                guard take == remaining else {
                    state = .control(opcode: opcode, remaining: remaining - take, mask: next)
                    return nil
                }
                state = .header
                let payload = controlPayload
                controlPayload.removeAll(keepingCapacity: true)
                return .control(opcode: opcode, payload: payload)
            case .header:
                guard offset < bytes.count else { return nil }
                if let event = readHeader(UnsafeRawBufferPointer(bytes), at: &offset) { return event }
                if case .header = state { return nil }
            }
        }
    }

    /// Reads a header, straight from the chunk when it is whole there (nearly always), else through `header`.
    /// Returns an event only for a data frame's header or a violation; a control header moves to `.control`.
    private mutating func readHeader(_ bytes: UnsafeRawBufferPointer, at offset: inout Int) -> Event? {
        if header.isEmpty, bytes.count - offset >= 2 {
            let needed = headerLength(second: bytes[offset + 1])
            if bytes.count - offset >= needed {
                let event = parseHeader(UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + needed]))
                offset += needed
                return event
            }
        }
        while offset < bytes.count {
            header.append(bytes[offset])
            offset += 1
            if header.count >= 2, header.count == headerLength(second: header[1]) {
                let event = header.withUnsafeBytes { parseHeader($0) }
                header.removeAll(keepingCapacity: true)
                return event
            }
        }
        return nil
    }

    /// 2, 4 or 10 bytes by the 7-bit length, and the 4 of a mask key when the server reads a masked frame (a
    /// frame whose mask breaks the role's rule is refused in `parseHeader`, so its key is not waited for).
    private func headerLength(second: UInt8) -> Int {
        let key = role == .server && second & 0x80 != 0 ? 4 : 0
        switch second & 0x7F {
        case 126: return 4 + key
        case 127: return 10 + key
        default: return 2 + key
        }
    }

    private mutating func parseHeader(_ head: UnsafeRawBufferPointer) -> Event? {
        let first = head[0], second = head[1]
        let final = first & 0x80 != 0
        let compressed = first & 0x40 != 0
        let opcode = first & 0x0F
        let masked = second & 0x80 != 0
        switch role {
        case .client where masked: return fail("the server masked a frame (RFC 6455 5.1)")
        case .server where !masked: return fail("the client sent an unmasked frame (RFC 6455 5.1)")
        default: break
        }
        if first & 0x30 != 0 { return fail("a frame with reserved bits RSV2/RSV3 set") }
        var length = UInt64(second & 0x7F)
        var keyAt = 2
        if length == 126 {
            length = UInt64(head[2]) << 8 | UInt64(head[3])
            keyAt = 4
        } else if length == 127 {
            length = head[2..<10].reduce(0) { $0 << 8 | UInt64($1) }
            if length >> 63 != 0 { return fail("a frame length with its top bit set") }
            keyAt = 10
        }
        let mask = masked ? FrameMask.key(UnsafeRawBufferPointer(rebasing: head[keyAt..<keyAt + 4])) : 0
        switch opcode {
        case 0x8, 0x9, 0xA:
            if !final { return fail("a fragmented control frame") }
            if length > 125 { return fail("a control frame of \(length) bytes (at most 125)") }
            if compressed { return fail("a control frame with RSV1 set") }
            controlPayload.removeAll(keepingCapacity: true)
            state = .control(opcode: opcode, remaining: Int(length), mask: mask)
            return nil
        case 0x0:
            if !inFragmentedMessage { return fail("a continuation frame outside a fragmented message") }
            if compressed { return fail("a continuation frame with RSV1 set") }
        case 0x1, 0x2:
            if inFragmentedMessage { return fail("a new message began inside a fragmented one") }
            if compressed, !deflate { return fail("RSV1 set without permessage-deflate") }
            messageIsBinary = opcode == 0x2
            messageIsCompressed = compressed
        default:
            return fail("a frame with the unknown opcode \(opcode)")
        }
        inFragmentedMessage = !final
        state = .data(remaining: Int(length), final: final, mask: mask)
        return .dataFrame(announced: Int(length))
    }

    private mutating func fail(_ reason: String) -> Event {
        state = .failed
        return .violation(reason)
    }
}

/// Reads the frames a server sends (RFC 6455 5.2) from the bytes as they arrive, in chunks of any size and cut
/// anywhere. The client reads its own frames rather than through libwebsockets' parser, which takes a function call
/// and a dozen checks per byte: a third of `listen`'s CPU on 540-byte messages (DESIGN, "The client reads its own
/// frames").
///
/// A data frame's payload is handed on as slices of the chunk it arrived in, never copied here; a control frame
/// (at most 125 bytes) is collected whole. Every rule a server can break (a masked frame, reserved bits, an unknown
/// opcode, a fragmented or oversized control frame, a continuation out of place, a length with its top bit set)
/// ends the reading with `.violation`, and nothing after it is read. The reader holds no more than one control
/// payload, whatever the peer sends; what a data message may grow to is the caller's cap, told by
/// `.dataFrame(announced:)` before any of its payload.
struct ClientFrameReader {
    enum Event: Equatable {
        /// A data frame's header: `announced` payload bytes follow (`messageIsBinary` and `messageIsCompressed`
        /// describe the message it belongs to).
        case dataFrame(announced: Int)
        /// Payload of the current data frame. `endsMessage`: the last bytes of the message's final frame.
        case payload(UnsafeRawBufferPointer, endsMessage: Bool)
        /// A whole control frame: 0x8 close, 0x9 ping, 0xA pong.
        case control(opcode: UInt8, payload: [UInt8])
        /// The server broke the protocol (close with 1002); nothing more is read.
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

    private enum State {
        case header
        case data
        case control(opcode: UInt8)
        case failed
    }

    /// permessage-deflate was agreed: RSV1 may mark a message's first frame as compressed.
    let deflate: Bool
    private var state = State.header
    /// Header bytes of a header cut between chunks (at most 10: a server's frames carry no mask).
    private var header: [UInt8] = []
    private var frameIsFinal = false
    /// Payload bytes of the current frame not read yet.
    private(set) var remainingInFrame = 0
    /// A data message's first frame came without FIN and its final frame has not.
    private(set) var inFragmentedMessage = false
    private(set) var messageIsBinary = false
    private(set) var messageIsCompressed = false
    private var controlPayload: [UInt8] = []

    init(deflate: Bool) {
        self.deflate = deflate
    }

    /// Whether a data message is being read (between its first header and its last payload byte).
    var isInsideMessage: Bool {
        if case .data = state { return true }
        return inFragmentedMessage
    }

    /// The next event from `bytes[offset...]`, advancing `offset` past what it used; nil when the bytes are used
    /// up (or after a violation).
    mutating func next(in bytes: UnsafeRawBufferPointer, at offset: inout Int) -> Event? {
        while true {
            switch state {
            case .failed:
                return nil
            case .data:
                let take = min(remainingInFrame, bytes.count - offset)
                if take == 0, remainingInFrame > 0 { return nil }
                let slice = UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + take])
                offset += take
                remainingInFrame -= take
                let endsFrame = remainingInFrame == 0
                if endsFrame { state = .header }
                return .payload(slice, endsMessage: endsFrame && frameIsFinal)
            case .control(let opcode):
                let take = min(remainingInFrame, bytes.count - offset)
                controlPayload.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + take]))
                offset += take
                remainingInFrame -= take
                guard remainingInFrame == 0 else { return nil }
                state = .header
                let payload = controlPayload
                controlPayload.removeAll(keepingCapacity: true)
                return .control(opcode: opcode, payload: payload)
            case .header:
                guard offset < bytes.count else { return nil }
                if let event = readHeader(bytes, at: &offset) { return event }
                if case .header = state { return nil }
            }
        }
    }

    /// Reads a header, straight from the chunk when it is whole there (nearly always), else through `header`.
    /// Returns an event only for a data frame's header or a violation; a control header moves to `.control`.
    private mutating func readHeader(_ bytes: UnsafeRawBufferPointer, at offset: inout Int) -> Event? {
        if header.isEmpty, bytes.count - offset >= 2 {
            let needed = Self.headerLength(second: bytes[offset + 1])
            if bytes.count - offset >= needed {
                let event = parseHeader(UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + needed]))
                offset += needed
                return event
            }
        }
        while offset < bytes.count {
            header.append(bytes[offset])
            offset += 1
            if header.count >= 2, header.count == Self.headerLength(second: header[1]) {
                let event = header.withUnsafeBytes { parseHeader($0) }
                header.removeAll(keepingCapacity: true)
                return event
            }
        }
        return nil
    }

    /// 2, 4 or 10 bytes, by the 7-bit length; the mask bit is refused in `parseHeader`, so its key is not counted.
    private static func headerLength(second: UInt8) -> Int {
        switch second & 0x7F {
        case 126: 4
        case 127: 10
        default: 2
        }
    }

    private mutating func parseHeader(_ head: UnsafeRawBufferPointer) -> Event? {
        let first = head[0], second = head[1]
        let final = first & 0x80 != 0
        let compressed = first & 0x40 != 0
        let opcode = first & 0x0F
        if second & 0x80 != 0 { return fail("the server masked a frame (RFC 6455 5.1)") }
        if first & 0x30 != 0 { return fail("a frame with reserved bits RSV2/RSV3 set") }
        var length = UInt64(second & 0x7F)
        if length == 126 {
            length = UInt64(head[2]) << 8 | UInt64(head[3])
        } else if length == 127 {
            length = head[2..<10].reduce(0) { $0 << 8 | UInt64($1) }
            if length >> 63 != 0 { return fail("a frame length with its top bit set") }
        }
        switch opcode {
        case 0x8, 0x9, 0xA:
            if !final { return fail("a fragmented control frame") }
            if length > 125 { return fail("a control frame of \(length) bytes (at most 125)") }
            if compressed { return fail("a control frame with RSV1 set") }
            remainingInFrame = Int(length)
            controlPayload.removeAll(keepingCapacity: true)
            state = .control(opcode: opcode)
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
        frameIsFinal = final
        remainingInFrame = Int(length)
        state = .data
        return .dataFrame(announced: Int(length))
    }

    private mutating func fail(_ reason: String) -> Event {
        state = .failed
        return .violation(reason)
    }
}

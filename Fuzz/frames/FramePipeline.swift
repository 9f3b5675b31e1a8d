// The frame-reading pipeline of the `frames` and `server-frames` targets (their entry points say what the input
// is and what holds): FrameReader, MessageInflater and MessageAssembler joined as ServiceCore+LinkReading.swift
// joins them, in either role. A server's reader unmasks each chunk in place: every chunk here is a fresh copy.

@testable import BCWebSocket

enum FuzzFrames {
    /// One input: the settings byte (the targets' headers say what each bit means), then the stream, read whole
    /// and cut into chunks in `role`; the two readings must agree.
    static func run(_ data: UnsafePointer<UInt8>, _ size: Int, role: FrameReader.Role) -> CInt {
        guard size >= 1 else { return 0 }
        let settings = data[0]
        let stream = UnsafeRawBufferPointer(start: data + 1, count: size - 1)
        let deflate = settings & 1 != 0
        let limit = [1 << 20, 4096, 100, 0][Int(settings >> 1 & 3)]
        let scratchSize = [64 * 1024, 4096, 61, 1][Int(settings >> 3 & 3)]
        let whole = read(stream, cuts: [stream.count], role: role, deflate: deflate, limit: limit, scratch: scratchSize)
        let cut = read(stream, cuts: chunkSizes(stream.count, pattern: Int(settings >> 5)), role: role,
                       deflate: deflate, limit: limit, scratch: scratchSize)
        if whole != cut, !bothRefusedTheLastMessage(whole, cut) {
            fatalError("the stream read whole and cut into chunks differ:\n  whole: \(whole)\n  cut:   \(cut)")
        }
        if role == .server, let first = whole.first, stream.count >= 2, stream[1] & 0x80 == 0 {
            require(first == .violation("the client sent an unmasked frame (RFC 6455 5.1)"), "an unmasked frame was read")
        }
        return 0
    }

    /// What reading a stream gave, in a form that does not depend on how it was cut.
    enum Event: Equatable {
        case frame(announced: Int, binary: Bool, compressed: Bool)
        case control(opcode: UInt8, payload: [UInt8])
        case violation(String)
        case message(binary: Bool, bytes: [UInt8])
        /// A message refused: too big (`size` as the service reports it, for an uncompressed one), not UTF-8, or
        /// not deflate (zlib's words).
        case tooBig(binary: Bool, size: Int?)
        /// Text found not to be UTF-8 at the first bad chunk: how much of it came depends on the cuts.
        case invalidUTF8
        case corrupt(String)
    }

    /// zlib gives up on a bad deflate stream without handing over what it inflated of the call's input before
    /// the fault: fed whole, such a message is corrupt; fed in pieces, the pieces before the fault come out, and
    /// may pass the cap first. Text is checked a chunk at a time, so a chunk that holds both a bad byte and the
    /// byte past the cap is refused for one or the other as the cuts fall. Either way the message is refused and
    /// the connection closes (1007 or 1009).
    static func bothRefusedTheLastMessage(_ left: [Event], _ right: [Event]) -> Bool {
        func refusedCompressed(_ event: Event?) -> Bool {
            switch event {
            case .corrupt, .tooBig, .invalidUTF8: true
            default: false
            }
        }
        return left.dropLast() == right.dropLast() && refusedCompressed(left.last) && refusedCompressed(right.last)
    }

    static func read(_ stream: UnsafeRawBufferPointer, cuts: [Int], role: FrameReader.Role, deflate: Bool, limit: Int,
                     scratch: Int) -> [Event] {
        var pipeline = Pipeline(role: role, deflate: deflate, limit: limit, scratchSize: scratch)
        defer { pipeline.scratch.deallocate() }
        var start = 0
        for size in cuts {
            withExactChunk(stream, start..<start + size) { pipeline.feed($0) }
            start += size
            if pipeline.stopped { break }
        }
        require(pipeline.payloadTotal <= stream.count, "more payload than bytes given")
        return pipeline.events
    }

    struct Pipeline {
        var reader: FrameReader
        var assembler: MessageAssembler
        let inflater = MessageInflater()
        let scratch: UnsafeMutableRawBufferPointer
        var events: [Event] = []
        /// The connection would be closing: nothing more is read.
        var stopped = false
        var announced = 0
        var payloadInFrame = 0
        var payloadTotal = 0
        var inflatedInMessage = 0

        init(role: FrameReader.Role, deflate: Bool, limit: Int, scratchSize: Int) {
            reader = FrameReader(role: role, deflate: deflate)
            assembler = MessageAssembler(limit: limit)
            scratch = .allocate(byteCount: scratchSize, alignment: 16)
        }

        mutating func feed(_ chunk: UnsafeMutableRawBufferPointer) {
            var offset = 0
            while !stopped {
                let before = offset
                guard let event = reader.next(in: chunk, at: &offset) else { break }
                require(before <= offset && offset <= chunk.count, "offset \(before) -> \(offset) of \(chunk.count)")
                switch event {
                case .dataFrame(let length):
                    require(payloadInFrame == announced, "a frame began before the last one's payload ended")
                    require(length >= 0)
                    announced = length
                    payloadInFrame = 0
                    events.append(.frame(announced: length, binary: reader.messageIsBinary,
                                         compressed: reader.messageIsCompressed))
                case .payload(let bytes, let endsMessage):
                    if bytes.count > 0 {
                        let base = chunk.baseAddress!, slice = bytes.baseAddress!
                        require(slice >= base + before && slice + bytes.count <= base + offset,
                                     "a payload slice outside what the reader took of its chunk")
                    }
                    payloadInFrame += bytes.count
                    payloadTotal += bytes.count
                    require(payloadInFrame <= announced, "\(payloadInFrame) payload bytes of \(announced) announced")
                    require(reader.remainingInFrame == announced - payloadInFrame)
                    if endsMessage { require(payloadInFrame == announced && !reader.inFragmentedMessage) }
                    if reader.messageIsCompressed {
                        inflate(bytes, endsMessage: endsMessage)
                    } else {
                        take(bytes, final: endsMessage)
                    }
                case .control(let opcode, let payload):
                    require([0x8, 0x9, 0xA].contains(opcode) && payload.count <= 125)
                    events.append(.control(opcode: opcode, payload: payload))
                    if opcode == 0x8 { FuzzFrames.checkClose(payload) }
                case .violation(let what):
                    events.append(.violation(what))
                    var after = offset
                    require(reader.next(in: chunk, at: &after) == nil && after == offset, "read after a violation")
                    stopped = true
                }
            }
            if !stopped { require(offset == chunk.count, "bytes left unread without a violation") }
        }

        /// ServiceCore.take: a whole text frame goes straight out, anything else through the assembler.
        mutating func take(_ bytes: UnsafeRawBufferPointer, final: Bool) {
            let binary = reader.messageIsBinary
            if final, !binary, assembler.isBetweenMessages, bytes.count <= assembler.limit {
                if let text = String(validating: bytes.assumingMemoryBound(to: UInt8.self), as: UTF8.self) {
                    events.append(.message(binary: false, bytes: Array(text.utf8)))
                    return
                }
            }
            assembled(assembler.append(bytes, final: final, binary: binary), stillAnnounced: reader.remainingInFrame,
                      compressed: false)
        }

        /// ServiceCore.inflate.
        mutating func inflate(_ bytes: UnsafeRawBufferPointer, endsMessage: Bool) {
            let binary = reader.messageIsBinary
            var refusal: MessageAssembler.Outcome?
            var assembler = self.assembler
            var inflated = inflatedInMessage
            let limit = assembler.limit, scratchSize = scratch.count
            let outcome = inflater.inflate(bytes, endsMessage: endsMessage, scratch: scratch) { piece in
                require(refusal == nil, "the inflater went on after it was told to stop")
                require(piece.count > 0 && piece.count <= scratchSize)
                inflated += piece.count
                require(inflated <= limit + scratchSize, "inflated \(inflated) bytes past a cap of \(limit)")
                switch assembler.append(piece, final: false, binary: binary) {
                case .partial: return true
                case let other:
                    refusal = other
                    return false
                }
            }
            self.assembler = assembler
            inflatedInMessage = endsMessage ? 0 : inflated
            switch outcome {
            case .done:
                require(refusal == nil)
                guard endsMessage else { return }
                let last = assembler.append(UnsafeRawBufferPointer(start: nil, count: 0), final: true, binary: binary)
                assembled(last, stillAnnounced: 0, compressed: true)
            case .stopped:
                guard let refusal else { fatalError("stopped, and nobody asked") }
                assembled(refusal, stillAnnounced: reader.remainingInFrame, compressed: true)
            case .corrupt(let what):
                events.append(.corrupt(what))
                stopped = true
            }
        }

        /// ServiceCore.assembled: a message delivered, or refused (and the connection closes).
        mutating func assembled(_ outcome: MessageAssembler.Outcome, stillAnnounced: Int, compressed: Bool) {
            switch outcome {
            case .partial:
                require(assembler.heldBytes <= assembler.limit)
            case .discarding:
                fatalError("the assembler was fed after a refusal")
            case .message(let binary, let bytes):
                require(bytes.count <= assembler.limit, "a message of \(bytes.count) bytes past the cap")
                require(binary || String(validating: bytes, as: UTF8.self) != nil, "text delivered that is not UTF-8")
                events.append(.message(binary: binary, bytes: bytes))
            case .invalidUTF8(let received, let prefix):
                require(prefix.count <= received && prefix.count <= MessageAssembler.keptPrefix)
                require(String(validating: prefix, as: UTF8.self) == nil || prefix.count < received,
                        "refused as not UTF-8, and what was kept of it is UTF-8")
                events.append(.invalidUTF8)
                stopped = true
            case .tooBig(let limit, let binary, let received, let prefix):
                require(limit == assembler.limit && received > limit && prefix.count <= MessageAssembler.keptPrefix)
                events.append(.tooBig(binary: binary, size: compressed ? nil : received + stillAnnounced))
                stopped = true
            }
        }
    }

    /// A close frame's payload: a code and UTF-8 text, or a problem; the text is exactly the payload's.
    static func checkClose(_ payload: [UInt8]) {
        let close = ServiceCore.parseClose(payload)
        if payload.count >= 2 {
            require(close.code == UInt16(payload[0]) << 8 | UInt16(payload[1]))
            let valid = String(validating: payload.dropFirst(2), as: UTF8.self)
            require((valid == nil) == (close.problem?.contains("UTF-8") == true))
            if let valid { require(close.text == valid) }
        } else {
            require(close.text.isEmpty && (payload.isEmpty ? close.problem == nil : close.problem != nil))
        }
    }
}

import CLibWebSockets

/// Reading a link's bytes, in either role: TLS records for `wss://`, the opening handshake (the client's answer
/// or the server's request), then frames (`FrameReader`), inflated (`MessageInflater`), assembled and handed
/// over; pings answered, pongs noted, the close handshake. Service thread only, like the rest of `ServiceCore`.
extension ServiceCore {
    // MARK: Reading

    /// RAW_RX: TLS records for a `wss://` link, then the opening handshake, then frames. Returns -1 to close the
    /// socket now. The bytes are lws' read buffer, ours until the callback returns: a server unmasks in place.
    func rawReceived(_ session: ServiceSession, wsi: OpaquePointer, input: UnsafeMutableRawPointer?,
                     length: Int) -> Int32 {
        guard !session.finished, let link = session.link, let input, length > 0 else { return 0 }
        let chunk = UnsafeMutableRawBufferPointer(start: input, count: length)
        guard let tls = link.tls else { return readPlaintext(session, link: link, wsi: wsi, chunk) }
        tls.receive(UnsafeRawBufferPointer(chunk))
        if !tls.isEstablished {
            switch tls.handshake() {
            case .waiting:
                if tls.outputCount > 0 { lws_callback_on_writable(wsi) }
                return 0
            case .failed(let reason):
                // A server's client that fails TLS is reported as abandoned when its socket closes.
                guard session.client != nil else { return -1 }
                session.wsi = nil
                finish(session, failed: .tls(reason))
                return -1
            case .established:
                // A server's TLS may have its last handshake flight to write.
                if tls.outputCount > 0 { lws_callback_on_writable(wsi) }
                if session.client != nil, beginUpgrade(session, wsi: wsi) != 0 { return -1 }
            }
        }
        return readTLS(session, link: link, tls: tls, wsi: wsi)
    }

    /// Reads the plaintext OpenSSL holds, as long as reading is not paused (what it keeps then waits there for the
    /// resume).
    func readTLS(_ session: ServiceSession, link: FrameLink, tls: ClientTLS, wsi: OpaquePointer) -> Int32 {
        let scratch = tlsScratch
        while !session.finished, !session.readingPaused || session.localClose != nil {
            switch tls.read(into: scratch) {
            case .bytes(let count):
                let result = readPlaintext(session, link: link, wsi: wsi,
                                           UnsafeMutableRawBufferPointer(rebasing: scratch[..<count]))
                if result != 0 { return result }
            case .waiting:
                if tls.outputCount > 0 { lws_callback_on_writable(wsi) }
                return 0
            case .ended(let why):
                if !session.isOpen, session.client != nil {
                    session.wsi = nil
                    finish(session, failed: .other("the TLS connection ended before the WebSocket upgrade: \(why)"))
                }
                return -1
            }
        }
        return 0
    }

    /// The plaintext of the connection: the opening handshake, then frames.
    private func readPlaintext(_ session: ServiceSession, link: FrameLink, wsi: OpaquePointer,
                               _ chunk: UnsafeMutableRawBufferPointer) -> Int32 {
        var offset = 0
        switch link.upgrade {
        case .done:
            break
        case .refused:
            return 0
        case .awaitingRequest(var handshake):
            link.upgrade = .done  // the handshake taken out, so that its buffer is not copied as it grows
            switch readUpgradeRequest(session, link: link, wsi: wsi, &handshake, UnsafeRawBufferPointer(chunk)) {
            case .some(let consumed): offset = consumed
            case .none: return 0
            }
        case .awaitingAnswer(var handshake):
            guard session.stage == .upgrading else { return 0 }
            link.upgrade = .done
            switch handshake.consume(UnsafeRawBufferPointer(chunk)) {
            case .needMore:
                link.upgrade = .awaitingAnswer(handshake)
                return 0
            case .failed(let failure):
                session.wsi = nil
                finish(session, failed: failure)
                return -1
            case .accepted(let agreement, let consumed):
                link.reader = FrameReader(role: .client, deflate: agreement.deflate)
                offset = consumed
                if opened(session, wsi: wsi) != 0 { return -1 }
            }
        }
        if !link.heldInput.isEmpty {
            // Reading resumed with bytes still held from before the pause: they come first.
            link.heldInput.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[offset...]))
            return readHeldInput(session, link: link, wsi: wsi)
        }
        return readFrames(session, link: link, wsi: wsi, chunk, from: offset)
    }

    /// Reads what was held when reading paused; called when reading resumes.
    func readHeldInput(_ session: ServiceSession, link: FrameLink, wsi: OpaquePointer) -> Int32 {
        var held = link.heldInput
        link.heldInput = []
        return held.withUnsafeMutableBytes { readFrames(session, link: link, wsi: wsi, $0, from: 0) }
    }

    /// Every frame in `chunk[offset...]`. Stops early when the consumer's window pauses reading: what is left is
    /// kept in `heldInput` for the resume, so the window is never passed by more than one message.
    private func readFrames(_ session: ServiceSession, link: FrameLink, wsi: OpaquePointer,
                            _ chunk: UnsafeMutableRawBufferPointer, from start: Int) -> Int32 {
        var offset = start
        while !session.finished, let event = link.reader?.next(in: chunk, at: &offset) {
            switch event {
            case .dataFrame:
                break  // `refuseAnnouncedOversize` reads the announced length from the reader
            case .payload(let bytes, let endsMessage):
                guard session.localClose == nil, !link.machine.closeFrameExchanged else { continue }
                if link.reader?.messageIsCompressed == true {
                    inflate(session, link: link, wsi: wsi, bytes, endsMessage: endsMessage)
                } else {
                    take(session, bytes, final: endsMessage, binary: link.reader?.messageIsBinary ?? false,
                         wsi: wsi) { link.reader?.remainingInFrame ?? 0 }
                }
                if session.readingPaused, offset < chunk.count, session.localClose == nil {
                    link.heldInput = Array(UnsafeMutableRawBufferPointer(rebasing: chunk[offset...]))
                    return 0
                }
            case .control(let opcode, let payload):
                if controlFrame(session, link: link, wsi: wsi, opcode: opcode, payload: payload) != 0 { return -1 }
            case .violation(let what):
                if link.machine.closeFrameExchanged { return -1 }
                requestUrgentClose(session, code: 1002, text: "protocol error",
                                   cause: .protocolViolation(what))
            }
        }
        return 0
    }

    private func inflate(_ session: ServiceSession, link: FrameLink, wsi: OpaquePointer,
                         _ bytes: UnsafeRawBufferPointer, endsMessage: Bool) {
        let inflater = link.inflater ?? MessageInflater()
        link.inflater = inflater
        let binary = link.reader?.messageIsBinary ?? false
        let outcome = inflater.inflate(bytes, endsMessage: endsMessage, scratch: inflateScratch) { piece in
            switch session.assembler.append(piece, final: false, binary: binary) {
            case .partial:
                return true
            case let refused:
                assembled(session, refused, wsi: wsi, stillAnnounced: link.reader?.remainingInFrame ?? 0)
                return false
            }
        }
        switch outcome {
        case .done:
            guard endsMessage else { return }
            let last = session.assembler.append(UnsafeRawBufferPointer(start: nil, count: 0), final: true,
                                                binary: binary)
            assembled(session, last, wsi: wsi, stillAnnounced: 0)
        case .stopped:
            return
        case .corrupt(let what):
            requestUrgentClose(session, code: 1007, text: "invalid compressed data",
                               cause: .protocolViolation("a compressed message whose data is corrupt (\(what))"))
        }
    }

    /// A ping is answered, a pong keeps the link valid, a close is answered and ends it.
    private func controlFrame(_ session: ServiceSession, link: FrameLink, wsi: OpaquePointer,
                              opcode: UInt8, payload: [UInt8]) -> Int32 {
        switch opcode {
        case 0x9:
            switch link.machine.pingReceived(payload) {
            case .answer:
                lws_callback_on_writable(wsi)
            case .ignored:
                break
            case .flooded:
                let most = WebSocketLinkStateMachine.maxOwedPongs
                requestUrgentClose(session, code: 1008, text: "too many pings unanswered",
                                   cause: .protocolViolation("more than \(most) pings came before their pongs could be written"),
                                   discardingQueued: true)
            }
        case 0xA:
            session.lastValidity = .now
            link.machine.pongReceived()
        default:
            let close = Self.parseClose(payload)
            if session.peerClose == nil { session.peerClose = (close.code, close.text) }
            let echo: UInt16? = close.problem == nil ? (close.code == 1005 ? nil : close.code) : 1002
            switch link.machine.closeReceived(echo: .init(code: echo, text: "")) {
            case .handshakeDone:
                return -1  // it answers ours
            case .answerOwed:
                // What is still queued is not sent (RFC 6455 5.5.1: no data after a close).
                _ = session.dropOutgoing()
                lws_callback_on_writable(wsi)
            }
        }
        return 0
    }

    /// A close frame's payload: none (1005), or a 2-byte code and UTF-8 text. `problem` says what is wrong with
    /// one that breaks the rules (1 byte, a code no endpoint may send, text not UTF-8).
    static func parseClose(_ payload: [UInt8]) -> (code: UInt16, text: String, problem: String?) {
        guard !payload.isEmpty else { return (1005, "", nil) }
        guard payload.count >= 2 else { return (1002, "", "a close frame of 1 byte") }
        let code = UInt16(payload[0]) << 8 | UInt16(payload[1])
        guard let text = String(validating: payload.dropFirst(2), as: UTF8.self) else {
            return (code, String(decoding: payload.dropFirst(2), as: UTF8.self), "a close reason that is not UTF-8")
        }
        guard sendableCloseCode(code) == code || code == 1000 else {
            return (code, text, "the close code \(code), which no endpoint may send")
        }
        return (code, text, nil)
    }

}

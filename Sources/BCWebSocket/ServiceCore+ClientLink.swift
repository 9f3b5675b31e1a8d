import CLibWebSockets

/// The client side over an lws raw socket: lws connects (DNS is ours) and moves the bytes, and everything else is
/// done here: TLS for `wss://` (`ClientTLS`), the upgrade (`ClientHandshake`), reading frames
/// (`ClientFrameReader`), inflating (`MessageInflater`), writing masked frames (`ClientFrameWriter`), pings and
/// pongs, and the close handshake.
/// Service thread only, like the rest of `ServiceCore`.
extension ServiceCore {
    /// How long our close frame waits for the peer's before the TCP connection is dropped.
    static let closeAnswerDeadline = Duration.seconds(2)

    // MARK: Connected: the upgrade request

    /// RAW_CONNECTED: TCP is up. A `wss://` link starts its TLS handshake; a `ws://` one its upgrade.
    func rawConnected(_ session: ServiceSession, wsi: OpaquePointer) -> Int32 {
        guard !session.finished, session.stage == .connecting, session.link == nil, let client = session.client
        else { return 0 }
        session.wsi = wsi
        guard client.url.isSecure else {
            session.link = ClientLink(tls: nil)
            return beginUpgrade(session, wsi: wsi)
        }
        let made = tlsContext(for: client.configuration.tls).flatMap { context in
            ClientTLS(context: context, host: client.url.host).map { Result.success($0) }
                ?? .failure(.tls("TLS could not start a connection (out of memory?)"))
        }
        switch made {
        case .failure(let failure):
            session.wsi = nil
            finish(session, failed: failure)
            return -1
        case .success(let tls):
            session.link = ClientLink(tls: tls)
            _ = tls.handshake()  // the ClientHello, written at WRITEABLE
            lws_callback_on_writable(wsi)
            return 0
        }
    }

    /// The connection (and its TLS) is up: the upgrade request goes out.
    private func beginUpgrade(_ session: ServiceSession, wsi: OpaquePointer) -> Int32 {
        guard let client = session.client, let link = session.link else { return -1 }
        session.stage = .upgrading
        client.deliver(.upgrading)
        var nonce = [UInt8](repeating: 0, count: 16)
        var generator = SystemRandomNumberGenerator()
        for index in nonce.indices { nonce[index] = generator.next() }
        let handshake = ClientHandshake(nonce: nonce, offersDeflate: client.configuration.permessageDeflate,
                                        subprotocol: client.configuration.subprotocol)
        switch handshake.request(url: client.url, origin: client.configuration.origin) {
        case .failure(let failure):
            session.wsi = nil
            finish(session, failed: failure)
            return -1
        case .success(let request):
            link.begin(request: request, handshake: handshake)
            lws_callback_on_writable(wsi)
            return 0
        }
    }

    /// RAW_CLOSE: the socket is gone. Before the upgrade was answered, that is a failed attempt.
    func rawClosed(_ session: ServiceSession) {
        guard !session.finished else { return }
        if session.isOpen {
            closed(session)
            return
        }
        session.wsi = nil
        if stopping {
            finish(session, failed: .cancelled)
        } else if session.stage == .upgrading {
            finish(session, failed: .other("the server closed the connection before answering the WebSocket upgrade"))
        } else {
            finish(session, failed: session.lastFailure ?? .other("the connection closed before it was established"))
        }
    }

    // MARK: Reading

    /// RAW_RX: TLS records for a `wss://` link, then the answer to the upgrade, then frames. Returns -1 to close
    /// the socket now.
    func rawReceived(_ session: ServiceSession, wsi: OpaquePointer, input: UnsafeMutableRawPointer?,
                     length: Int) -> Int32 {
        guard !session.finished, let link = session.link, let input, length > 0 else { return 0 }
        let chunk = UnsafeRawBufferPointer(start: input, count: length)
        guard let tls = link.tls else { return readPlaintext(session, link: link, wsi: wsi, chunk) }
        tls.receive(chunk)
        if !tls.isEstablished {
            switch tls.handshake() {
            case .waiting:
                if tls.outputCount > 0 { lws_callback_on_writable(wsi) }
                return 0
            case .failed(let reason):
                session.wsi = nil
                finish(session, failed: .tls(reason))
                return -1
            case .established:
                if beginUpgrade(session, wsi: wsi) != 0 { return -1 }
            }
        }
        return readTLS(session, link: link, tls: tls, wsi: wsi)
    }

    /// Reads the plaintext OpenSSL holds, as long as reading is not paused (what it keeps then waits there for the
    /// resume).
    func readTLS(_ session: ServiceSession, link: ClientLink, tls: ClientTLS, wsi: OpaquePointer) -> Int32 {
        let scratch = tlsScratch
        while !session.finished, !session.readingPaused || session.localClose != nil {
            switch tls.read(into: scratch) {
            case .bytes(let count):
                let result = readPlaintext(session, link: link, wsi: wsi,
                                           UnsafeRawBufferPointer(rebasing: scratch[..<count]))
                if result != 0 { return result }
            case .waiting:
                if tls.outputCount > 0 { lws_callback_on_writable(wsi) }
                return 0
            case .ended(let why):
                if !session.isOpen {
                    session.wsi = nil
                    finish(session, failed: .other("the TLS connection ended before the WebSocket upgrade: \(why)"))
                }
                return -1
            }
        }
        return 0
    }

    /// The plaintext of the connection: the answer to the upgrade, then frames.
    private func readPlaintext(_ session: ServiceSession, link: ClientLink, wsi: OpaquePointer,
                               _ chunk: UnsafeRawBufferPointer) -> Int32 {
        var offset = 0
        if var handshake = link.handshake {
            guard session.stage == .upgrading else { return 0 }
            switch handshake.consume(chunk) {
            case .needMore:
                link.handshake = handshake
                return 0
            case .failed(let failure):
                session.wsi = nil
                finish(session, failed: failure)
                return -1
            case .accepted(let agreement, let consumed):
                link.handshake = nil
                link.reader = ClientFrameReader(deflate: agreement.deflate)
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
    func readHeldInput(_ session: ServiceSession, link: ClientLink, wsi: OpaquePointer) -> Int32 {
        let held = link.heldInput
        link.heldInput = []
        return held.withUnsafeBytes { readFrames(session, link: link, wsi: wsi, $0, from: 0) }
    }

    /// Every frame in `chunk[offset...]`. Stops early when the consumer's window pauses reading: what is left is
    /// kept in `heldInput` for the resume, so the window is never passed by more than one message.
    private func readFrames(_ session: ServiceSession, link: ClientLink, wsi: OpaquePointer,
                            _ chunk: UnsafeRawBufferPointer, from start: Int) -> Int32 {
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
                    link.heldInput = Array(UnsafeRawBufferPointer(rebasing: chunk[offset...]))
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

    private func inflate(_ session: ServiceSession, link: ClientLink, wsi: OpaquePointer,
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
    private func controlFrame(_ session: ServiceSession, link: ClientLink, wsi: OpaquePointer,
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

    // MARK: Writing

    /// RAW_WRITEABLE: the upgrade request, then what `WebSocketLinkStateMachine.nextWrite` says (our answer to
    /// the peer's close, the pongs owed, our ping, our data, our close). One frame batch per call; asks again while
    /// more waits.
    func rawWritable(_ session: ServiceSession, wsi: OpaquePointer) -> Int32 {
        guard !session.finished, !destroying, let link = session.link else { return 0 }
        if let tls = link.tls {
            if tls.outputCount > 0, flushTLS(tls, to: wsi) < 0 { return -1 }
            guard tls.isEstablished else { return 0 }
        }
        if let request = link.request {
            link.request = nil
            return writeRaw(request, link: link, to: wsi) < 0 ? -1 : 0
        }
        guard session.isOpen else { return 0 }
        switch link.machine.nextWrite(hasQueuedData: session.hasOutgoing) {
        case .closeSocket:
            // lws calls WRITEABLE only once what it buffered went out: the close handshake is over.
            return -1
        case .nothing:
            break
        case .pong(let payload):
            if writeControl(0x8A, payload, link: link, to: wsi) < 0 { return -1 }
        case .ping:
            if writeControl(0x89, [], link: link, to: wsi) < 0 { return -1 }
        case .data:
            let result = session.dequeueFrames(upTo: Self.coalescedWriteLimit) {
                writeMaskedFrames($0, link: link, to: wsi)
            }
            if result < 0 { return -1 }
        case .close(let frame):
            if link.machine.closing == .answered {
                if writeControl(0x88, frame.payload, link: link, to: wsi) < 0 { return -1 }
            } else if sendClose(session, link: link, wsi: wsi, frame) != 0 {
                return -1
            }
        }
        if link.machine.wantsToWrite(hasQueuedData: session.hasOutgoing) { lws_callback_on_writable(wsi) }
        return 0
    }

    /// Writes our close frame (this side closes), then reads on for the peer's answer until the deadline.
    private func sendClose(_ session: ServiceSession, link: ClientLink, wsi: OpaquePointer,
                           _ frame: WebSocketLinkStateMachine.CloseFrame) -> Int32 {
        if session.localClose == nil, let request = session.closeRequest {
            session.localClose = WebSocketCloseReason(code: request.code, text: request.text, initiatedLocally: true,
                                                      cause: request.cause)
        }
        if writeControl(0x88, frame.payload, link: link, to: wsi) < 0 { return -1 }
        // The peer's answer must be read, whatever paused reading; it has until the deadline. Bytes held back by a
        // pause are read first (their data is dropped now), since the answer may be among them.
        retireTimer(of: session)
        startTimer(session, after: Self.closeAnswerDeadline)
        if !link.heldInput.isEmpty, readHeldInput(session, link: link, wsi: wsi) != 0 { return -1 }
        if session.readingPaused || session.closeUrgently { lws_rx_flow_control(wsi, 1) }
        return 0
    }

    private func writeControl(_ head: UInt8, _ payload: [UInt8], link: ClientLink, to wsi: OpaquePointer) -> Int32 {
        payload.withUnsafeBytes { bytes in
            writeWithRoom(ClientFrameWriter.overhead + bytes.count, link: link, to: wsi) { at in
                ClientFrameWriter.write(head: head, payload: bytes, mask: maskKey(), into: at)
            }
        }
    }

    /// Writes `frames` masked with one `lws_write`.
    private func writeMaskedFrames(_ frames: ArraySlice<ServiceSession.Frame>, link: ClientLink,
                                   to wsi: OpaquePointer) -> Int32 {
        let room = frames.reduce(0) { $0 + ClientFrameWriter.overhead + $1.bytes.count }
        return writeWithRoom(room, link: link, to: wsi) { at in
            var end = at
            for frame in frames {
                end = frame.bytes.withUnsafeBytes {
                    ClientFrameWriter.write(head: frame.head, payload: $0, mask: maskKey(), into: end)
                }
            }
            return end
        }
    }

    private func writeRaw(_ bytes: [UInt8], link: ClientLink, to wsi: OpaquePointer) -> Int32 {
        bytes.withUnsafeBytes { source in
            writeWithRoom(source.count, link: link, to: wsi) { at in
                if let base = source.baseAddress { at.update(from: base.assumingMemoryBound(to: UInt8.self), count: source.count) }
                return at + source.count
            }
        }
    }

    /// Fills the write buffer and sends it: as it is (lws sends a raw write so, keeping what the socket did not
    /// take for later), or through the link's TLS.
    private func writeWithRoom(_ room: Int, link: ClientLink, to wsi: OpaquePointer,
                               _ fill: (UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8>) -> Int32 {
        let pre = bc_lws_pre()
        Self.ensure(&writeBuffer, holds: pre + room + 1)
        let (result, sealed) = writeBuffer.withUnsafeMutableBufferPointer { buffer -> (Int32, Bool) in
            let start = buffer.baseAddress! + pre
            let end = fill(start)
            if let tls = link.tls {
                return (0, tls.write(UnsafeRawBufferPointer(start: start, count: end - start)))
            }
            return (lws_write(wsi, start, end - start, LibWebSocketsAssumptions.rawWrite) < 0 ? -1 : 0, true)
        }
        guard sealed else { return -1 }
        if let tls = link.tls { return flushTLS(tls, to: wsi) }
        return result
    }

    /// Sends the ciphertext OpenSSL wrote.
    private func flushTLS(_ tls: ClientTLS, to wsi: OpaquePointer) -> Int32 {
        let pre = bc_lws_pre()
        while tls.outputCount > 0 {
            let room = tls.outputCount
            Self.ensure(&tlsOutputBuffer, holds: pre + room + 1)
            let result = tlsOutputBuffer.withUnsafeMutableBufferPointer { buffer -> Int32 in
                let start = buffer.baseAddress! + pre
                let taken = tls.takeOutput(into: UnsafeMutableRawBufferPointer(start: start, count: room))
                guard taken > 0 else { return -1 }
                return lws_write(wsi, start, taken, LibWebSocketsAssumptions.rawWrite) < 0 ? -1 : 0
            }
            if result < 0 { return -1 }
        }
        return 0
    }

    private func maskKey() -> UInt32 {
        var generator = SystemRandomNumberGenerator()
        return generator.next()
    }

    // MARK: Keepalive

    /// Once a sweep: a ping after `pingInterval` without a pong, the connection dropped after `hangupAfterSilence`.
    /// A link whose reading is paused is skipped: its pongs wait unread, and it is judged again from the resume.
    func keepAlive(_ session: ServiceSession, link: ClientLink, now: ContinuousClock.Instant) {
        guard session.isOpen, !session.finished, session.localClose == nil, !session.readingPaused,
              let wsi = session.wsi, let client = session.client else { return }
        let (ping, hangup) = client.configuration.validitySeconds
        switch link.machine.keepAliveTick(silence: now - session.lastValidity, pingAfter: .seconds(Int(ping)),
                                          hangUpAfter: .seconds(Int(hangup))) {
        case .none: break
        case .ping: lws_callback_on_writable(wsi)
        case .hangUp: bc_lws_kill_async(wsi)
        }
    }
}

import CLibWebSockets

/// Writing a link's bytes, in either role: the handshake, then what `WebSocketLinkStateMachine.nextWrite` says,
/// framed here (`FrameWriter`: masked by a client, deflated by a server that agreed to it) and sent as it is or
/// through the link's TLS. Service thread only, like the rest of `ServiceCore`.
extension ServiceCore {
    // MARK: Writing

    /// RAW_WRITEABLE: the handshake (the client's request, the server's answer), then what
    /// `WebSocketLinkStateMachine.nextWrite` says (our answer to the peer's close, the pongs owed, our ping, our data,
    /// our close). One frame batch per call; asks again while more waits. A stalled server client (fault
    /// injection) is written nothing.
    func rawWritable(_ session: ServiceSession, wsi: OpaquePointer) -> Int32 {
        guard !session.finished, !destroying, !session.stalled, let link = session.link else { return 0 }
        if let tls = link.tls {
            if tls.outputCount > 0, flushTLS(tls, to: wsi) < 0 { return -1 }
            guard tls.isEstablished else { return 0 }
        }
        if let handshake = link.handshakeOut {
            link.handshakeOut = nil
            if writeRaw(handshake, link: link, to: wsi) < 0 { return -1 }
            // A refused request's answer is out once lws calls WRITEABLE again: then the socket closes.
            if case .refused = link.upgrade {
                lws_callback_on_writable(wsi)
            } else if session.isOpen, link.machine.wantsToWrite(hasQueuedData: session.hasOutgoing) {
                lws_callback_on_writable(wsi)
            }
            return 0
        }
        if case .refused = link.upgrade { return -1 }
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
            let result = session.dequeueFrames(upTo: Self.coalescedWriteLimit) { frames in
                link.role == .client ? writeMaskedFrames(frames, link: link, to: wsi)
                    : writeServerFrames(frames, session: session, link: link, to: wsi)
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
    private func sendClose(_ session: ServiceSession, link: FrameLink, wsi: OpaquePointer,
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

    /// A control frame, masked by a client.
    private func writeControl(_ head: UInt8, _ payload: [UInt8], link: FrameLink, to wsi: OpaquePointer) -> Int32 {
        payload.withUnsafeBytes { bytes in
            writeWithRoom(FrameWriter.overhead + bytes.count, link: link, to: wsi) { at in
                FrameWriter.write(head: head, payload: bytes, mask: link.role == .client ? maskKey() : nil, into: at)
            }
        }
    }

    /// A client's data frames, masked, with one `lws_write`.
    private func writeMaskedFrames(_ frames: ArraySlice<ServiceSession.Frame>, link: FrameLink,
                                   to wsi: OpaquePointer) -> Int32 {
        let room = frames.reduce(0) { $0 + FrameWriter.overhead + $1.bytes.count }
        return writeWithRoom(room, link: link, to: wsi) { at in
            var end = at
            for frame in frames {
                end = frame.bytes.withUnsafeBytes {
                    FrameWriter.write(head: frame.head, payload: $0, mask: maskKey(), into: end)
                }
            }
            return end
        }
    }

    func writeRaw(_ bytes: [UInt8], link: FrameLink, to wsi: OpaquePointer) -> Int32 {
        bytes.withUnsafeBytes { source in
            writeWithRoom(source.count, link: link, to: wsi) { at in
                if let base = source.baseAddress { at.update(from: base.assumingMemoryBound(to: UInt8.self), count: source.count) }
                return at + source.count
            }
        }
    }

    /// Fills the write buffer and sends it: as it is (lws sends a raw write so, keeping what the socket did not
    /// take for later), or through the link's TLS.
    func writeWithRoom(_ room: Int, link: FrameLink, to wsi: OpaquePointer,
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


    /// A fresh mask key for each frame a client writes (RFC 6455 5.3).
    private func maskKey() -> UInt32 {
        var generator = SystemRandomNumberGenerator()
        return generator.next()
    }
}

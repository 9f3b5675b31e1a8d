import CLibWebSockets
import Foundation
import Synchronization

/// What a link hands its owner: the open, every message or refusal as it completes, and the end of the session
/// (a client's `deliver`, the server's `events`).
extension ServiceCore {
    func opened(_ session: ServiceSession, wsi: OpaquePointer) -> Int32 {
        guard !session.finished else { return -1 }
        retireTimer(of: session)
        session.wsi = wsi
        session.stage = .open
        session.lastValidity = .now
        session.client?.deliver(.opened)
        if session.hasOutgoing || session.closeRequest != nil { lws_callback_on_writable(wsi) }
        return 0
    }

    /// A chunk of a message's payload, as lws or our own reader hands it over; `final` when it ends the message.
    /// A whole text message in one chunk, as nearly every one is, goes straight from the read buffer into its
    /// String, without the assembler's copy (text that is not UTF-8 takes the assembler's path, which refuses it);
    /// anything else through the assembler. `stillAnnounced`: bytes of the current frame not read yet.
    func take(_ session: ServiceSession, _ chunk: UnsafeRawBufferPointer, final: Bool, binary: Bool,
              wsi: OpaquePointer, stillAnnounced: () -> Int) {
        if final, !binary, session.assembler.isBetweenMessages, chunk.count <= session.assembler.limit,
           let text = String(validating: chunk.assumingMemoryBound(to: UInt8.self), as: UTF8.self) {
            deliver(session, .text(text), size: chunk.count, wsi: wsi)
            return
        }
        let outcome = session.assembler.append(chunk, final: final, binary: binary)
        assembled(session, outcome, wsi: wsi, stillAnnounced: stillAnnounced())
    }

    /// What the assembler made of a chunk: a message delivered, or one refused (1007, 1009) with what it held.
    /// `stillAnnounced`: bytes of the current frame not read yet, counted in a refused message's size.
    func assembled(_ session: ServiceSession, _ outcome: MessageAssembler.Outcome, wsi: OpaquePointer,
                   stillAnnounced: Int) {
        switch outcome {
        case .partial, .discarding:
            return
        case .message(let binary, let bytes):
            if binary {
                deliver(session, .binary(bytes), size: bytes.count, wsi: wsi)
                return
            }
            // The assembler checked it (`UTF8Validator`).
            deliver(session, .text(String(decoding: bytes, as: UTF8.self)), size: bytes.count, wsi: wsi)
        case .invalidUTF8(let received, let prefix):
            let refused = RefusedMessage(reason: .invalidUTF8, binary: false, size: received, prefix: prefix)
            deliver(session, refused: refused)
            requestUrgentClose(session, code: 1007, text: "invalid UTF-8", cause: .invalidUTF8)
        case .tooBig(let limit, let binary, let received, let prefix):
            let refused = RefusedMessage(reason: .tooBig(limit: limit), binary: binary,
                                         size: received + stillAnnounced, prefix: prefix)
            deliver(session, refused: refused)
            requestUrgentClose(session, code: 1009, text: "message too big", cause: .messageTooBig(limit: limit))
        }
    }

    enum Received {
        case text(String)
        case binary([UInt8])
    }

    func deliver(_ session: ServiceSession, _ message: Received, size: Int, wsi: OpaquePointer) {
        // Only the two fields it needs, not a copy of the whole `ClientSide` (a retain and a release of each of
        // its references, for every frame).
        if let deliver = session.client?.deliver {
            deliveredThisPass += 1
            // Counted before it is handed over: the consumer may release it before `deliver` returns.
            if let window = session.client?.window {
                let id = session.id
                // One resume closure per session, not one per message.
                let resume: @Sendable () -> Void
                if let made = session.resumeReading {
                    resume = made
                } else {
                    resume = { [weak self] in self?.submit(.resumeReading(id: id)) }
                    session.resumeReading = resume
                }
                let pause = window.admit(bytes: size, resume: resume)
                if pause, !session.readingPaused {
                    // The keepalive skips a paused link (`keepAlive`): its pongs wait unread.
                    session.readingPaused = true
                    lws_rx_flow_control(wsi, 0)
                }
            }
            switch message {
            case .text(let text): deliver(.text(text))
            case .binary(let bytes): deliver(.binary(bytes))
            }
        } else if case .server(_, let events, _) = role {
            let client = ClientID(rawValue: session.id)
            switch message {
            case .text(let text): events.yield(.text(client, text))
            case .binary(let bytes): events.yield(.binary(client, bytes))
            }
        }
    }

    func deliver(_ session: ServiceSession, refused: RefusedMessage) {
        if let client = session.client {
            client.deliver(.refused(refused))
        } else if case .server(_, let events, _) = role {
            events.yield(.refused(ClientID(rawValue: session.id), refused))
        }
    }

    /// The most payload one write carries (one frame may be larger: it goes alone).
    static let coalescedWriteLimit = 64 * 1024

    func closed(_ session: ServiceSession) {
        guard !session.finished else { return }
        let reason: WebSocketCloseReason
        if let local = session.localClose {
            reason = local
        } else if let peer = session.peerClose {
            reason = WebSocketCloseReason(code: peer.code, text: peer.text, initiatedLocally: false, cause: .peerClosed)
        } else if stopping {
            reason = WebSocketCloseReason(code: 1001, text: "", initiatedLocally: true, cause: .loopStopped)
        } else if let silence = silenceWindow(session) {
            reason = WebSocketCloseReason(code: WebSocketCloseReason.abnormalClosure,
                                          text: "no pong within \(silence)", initiatedLocally: true,
                                          cause: .silence(after: silence))
        } else {
            reason = WebSocketCloseReason(code: WebSocketCloseReason.abnormalClosure, text: "",
                                          initiatedLocally: false, cause: .connectionLost)
        }
        finish(session, closed: reason)
    }

    /// The keepalive (`keepAlive`) drops a link without a close frame when no pong came for `hangupAfterSilence`.
    /// A close without a close frame that comes at least that long after the last pong (or the open) is that hangup.
    func silenceWindow(_ session: ServiceSession) -> Duration? {
        guard let client = session.client else { return nil }
        let hangup = Duration.seconds(Int(client.configuration.validitySeconds.hangup))
        let elapsed = ContinuousClock.now - session.lastValidity
        return elapsed >= hangup - .milliseconds(500) ? hangup : nil
    }
}

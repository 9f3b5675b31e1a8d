import CLibWebSockets
import Foundation
import Synchronization

/// The thin dispatcher between libwebsockets and the core: lws calls `bcServiceCallback` for every socket of the
/// context, and `handle` hands each event to the role's link code (ServiceCore+ClientLink.swift,
/// ServiceCore+ServerLink.swift, the shared reading and writing). Nothing here decides anything.
extension ServiceCore {
    func session(of wsi: OpaquePointer) -> ServiceSession? {
        guard let raw = lws_get_opaque_user_data(wsi) else { return nil }
        return sessions[UInt64(UInt(bitPattern: raw))]
    }

    func handle(wsi: OpaquePointer, reason: lws_callback_reasons, user: UnsafeMutableRawPointer?,
                            input: UnsafeMutableRawPointer?, length: Int) -> Int32 {
        switch reason {
        case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
            if !destroying { drainCommands() }
            return 0

        // Both roles: a raw socket, its WebSocket ours (ServiceCore+ClientLink.swift, ServiceCore+ServerLink.swift)
        case LWS_CALLBACK_RAW_CONNECTED:
            guard let session = session(of: wsi), session.client != nil else { return 0 }
            return rawConnected(session, wsi: wsi)
        case LWS_CALLBACK_RAW_RX:
            guard let session = session(of: wsi) else { return 0 }
            return rawReceived(session, wsi: wsi, input: input, length: length)
        case LWS_CALLBACK_RAW_WRITEABLE:
            guard let session = session(of: wsi) else { return 0 }
            return rawWritable(session, wsi: wsi)
        case LWS_CALLBACK_RAW_CLOSE:
            if let session = session(of: wsi) {
                if session.client == nil { serverClosed(session) } else { rawClosed(session) }
            }
            return 0
        case LWS_CALLBACK_CLIENT_CONNECTION_ERROR:
            if let session = session(of: wsi) { connectionError(session, wsi: wsi, input: input, length: length) }
            return 0

        case LWS_CALLBACK_RAW_ADOPT:
            return rawAdopted(wsi: wsi)

        default:
            return lws_callback_http_dummy(wsi, reason, user, input, length)
        }
    }
}

/// The protocol callback lws calls for every wsi of the context; finds the core through the
/// context's user pointer (the core outlives its context: the service thread holds it).
func bcServiceCallback(
    _ wsi: OpaquePointer?, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
    _ input: UnsafeMutableRawPointer?, _ length: Int
) -> Int32 {
    guard let wsi, let context = lws_get_context(wsi), let raw = lws_context_user(context) else {
        return 0
    }
    let core = Unmanaged<ServiceCore>.fromOpaque(raw).takeUnretainedValue()
    return core.handle(wsi: wsi, reason: reason, user: user, input: input, length: length)
}

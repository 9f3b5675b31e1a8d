import BCWebSocket
import Foundation
import Synchronization

/// Autobahn's client protocol: the number of cases from `/getCaseCount`, each case from `/runCase` with every
/// message echoed as it came until the fuzzing server closes, then `/updateReports`.
struct AutobahnClient {
    let base: WebSocketURL
    let agent: String
    let maxMessageSize: Int

    func run() async {
        let loop = WebSocketLoop(name: "autobahn-echo")
        let counted = await session(loop, path: "/getCaseCount") { _, event in
            if case .text(let text) = event { return Int(text) } else { return nil }
        }
        guard let count = counted, count > 0 else {
            print("autobahn-echo: the fuzzing server at \(base) gave no case count")
            exit(1)
        }
        let agentQuery = agent.addingQueryEscapes
        for number in 1...count {
            _ = await session(loop, path: "/runCase?case=\(number)&agent=\(agentQuery)") { link, event -> Int? in
                // Sent from the handler, on the loop's thread: an answer goes out before a close the loop decides
                // after the message (a frame that breaks the rules right behind it).
                switch event {
                case .text(let text): link.send(text)
                case .binary(let bytes): link.send(bytes)
                default: break
                }
                return nil
            }
        }
        _ = await session(loop, path: "/updateReports?agent=\(agentQuery)") { _, _ in nil }
        print("autobahn-echo: ran \(count) cases as \(agent)")
        await loop.shutdown()
    }

    /// One connection to `path` on the fuzzing server, until it closes (or fails to open); `onEvent` runs on the
    /// loop's thread for each event. Returns the last value `onEvent` gave that was not nil.
    private func session(_ loop: WebSocketLoop, path: String,
                         _ onEvent: @escaping @Sendable (WebSocketLink, WebSocketEvent) -> Int?) async -> Int? {
        let url = WebSocketURL(isSecure: base.isSecure, host: base.host, port: base.port, path: path)
        let configuration = WebSocketClientConfiguration(connectTimeout: .seconds(30), maxMessageSize: maxMessageSize)
        return await withCheckedContinuation { (done: CheckedContinuation<Int?, Never>) in
            let result = Mutex<Int?>(nil)
            // The handler gets the link with the event: one stored by the caller once `connect` returned could be
            // missing for the first message on a loaded machine, which then went unanswered and stalled the run.
            _ = loop.connect(to: url, configuration: configuration) { link, event in
                if let value = onEvent(link, event) {
                    result.withLock { $0 = value }
                }
                switch event {
                case .failed(let failure):
                    print("autobahn-echo: \(path): \(failure)")
                    done.resume(returning: nil)
                case .closed:
                    done.resume(returning: result.withLock { $0 })
                default:
                    break
                }
            }
        }
    }
}

extension String {
    /// Percent-escapes everything but unreserved characters (RFC 3986 2.3), for a query value.
    var addingQueryEscapes: String {
        var escaped = ""
        for byte in utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                 UInt8(ascii: "~"):
                escaped.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF".utf8)
                escaped += "%" + String(decoding: [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]], as: UTF8.self)
            }
        }
        return escaped
    }
}

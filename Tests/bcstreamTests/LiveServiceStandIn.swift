import Foundation
import TestSupport

/// The real service's two halves on loopback, for `listen <page URL>` tests: the REST API (`api_peer.py`, over
/// HTTPS) and a live's bcsvr (`bcstream replay` over `wss://`), both with a certificate from a CA made for the
/// test (`ca`, which the listener trusts with `--ca-file`). The API's `broadcast_host` is the replay server, so
/// every live it names plays `fixtures`: two comments (lci 900002, also in the API's backlog, and 900003) and
/// the live's end. `stop()` ends both and deletes the files.
struct LiveServiceStandIn {
    let ca: TestCertificateAuthority
    let api: PeerProcess
    let apiPort: Int
    let replay: PeerProcess
    let replayPort: Int
    /// Where the API looks for `onlive-<user_id>` (the switch that turns a user live).
    let stateDirectory: String

    /// The replayed live: a comment also in the backlog, one only live, then t=8.
    static let fixtures = [
        "1-comment-a-also-in-backlog.json":
            #"{"lci":"900002","cm":"second backlog comment, also sent live","u":"4530002","ac":"テスト視聴者B","burl":"","iurl":"","created_at":1540124940,"is_moderator":0,"t":1}"#,
        "1-comment-b-live-only.json":
            #"{"lci":"900003","cm":"a live comment","u":"4530003","ac":"テスト視聴者C","burl":"","iurl":"","created_at":1540124950,"is_moderator":0,"t":1}"#,
        "8-live-ended.json": #"{"t":8}"#,
    ]

    static func start() async throws -> LiveServiceStandIn {
        let ca = try await TestCertificateAuthority.make()
        let fixtures = ca.directory + "/fixtures"
        let state = ca.directory + "/state"
        do {
            try FileManager.default.createDirectory(atPath: fixtures, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
            for (name, text) in Self.fixtures {
                try Data((text + "\n").utf8).write(to: URL(fileURLWithPath: fixtures + "/" + name))
            }
            let replay = try PeerProcess(
                executable: BCStreamProcess.executable.path,
                arguments: ["replay", fixtures, "--interval", "0.05", "--tls-cert", ca.serverCertificate,
                            "--tls-key", ca.serverKey],
                name: "bcstream replay")
            guard let banner = try await replay.lines.next(within: .seconds(10), "replay's URL"),
                  banner.hasPrefix("wss://127.0.0.1:"),
                  let replayPort = Int(banner.dropFirst("wss://127.0.0.1:".count).dropLast()) else {
                replay.stop()
                throw PeerFailed(description: "replay printed no wss:// URL; stderr: \(replay.stderr)")
            }
            let api = try PeerProcess.python(.api, "serve", [ca.serverCertificate, ca.serverKey,
                                                             "127.0.0.1:\(replayPort)", state])
            let apiPort: Int
            do {
                apiPort = try await api.port()
            } catch {
                replay.stop()
                api.stop()
                throw error
            }
            return LiveServiceStandIn(ca: ca, api: api, apiPort: apiPort, replay: replay, replayPort: replayPort,
                                      stateDirectory: state)
        } catch {
            ca.remove()
            throw error
        }
    }

    /// `--api-base` and `--ca-file` for the listener.
    var apiArguments: [String] { ["--api-base", "https://127.0.0.1:\(apiPort)", "--ca-file", ca.certificate] }

    /// Turns the user live on the API (the profile's `onlive` names `liveID` from now on).
    func turnLive(user: String, liveID: String) throws {
        try Data(liveID.utf8).write(to: URL(fileURLWithPath: stateDirectory + "/onlive-" + user))
    }

    func stop() {
        api.stop()
        replay.stop()
        ca.remove()
    }
}

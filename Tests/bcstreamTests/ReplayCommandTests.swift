import Foundation
import Testing

@Suite struct ReplayCommandTests {
    /// `bcstream replay Tests/Payloads` serves every fixture, byte for byte and in order, to a client that is
    /// not this project's code (Python `websockets`), and answers its PING.
    @Test(.timeLimit(.minutes(1)))
    func replayServesEveryFixtureToAnIndependentClient() throws {
        let replay = try BCStreamProcess.start(["replay", "Tests/Payloads", "--interval", "0"])
        defer { replay.terminate() }
        let url = try #require(replay.readLine(), "replay prints its URL first")
        #expect(url.hasPrefix("ws://127.0.0.1:"))

        let client = try BCStreamProcess.runPython(["Tests/Peers/bcsvr_client.py", url, "fixture:key"])
        #expect(client.status == 0, "the client ends when replay closes: \(client.stderr)")
        let frames = try client.lines.map { try JSONDecoder().decode(String.self, from: Data($0.utf8)) }

        let payloads = BCStreamProcess.repository.appendingPathComponent("Tests/Payloads")
        let names = try FileManager.default.contentsOfDirectory(atPath: payloads.path)
            .filter { $0.hasSuffix(".json") }
            .map { String($0.dropLast(5)) }
            .sorted { (Int($0.prefix { $0 != "-" }) ?? .max, $0) < (Int($1.prefix { $0 != "-" }) ?? .max, $1) }
        let expected = try names.map { name in
            "MSG\tfixture:key\t" + String(decoding: try Data(contentsOf: payloads.appendingPathComponent(name + ".json")),
                                          as: UTF8.self)
        }
        #expect(frames.filter { $0 != "ACK" } == expected, "every fixture once, in order, exactly as stored")
        #expect(frames.contains("ACK"), "PING is answered")
        #expect(replay.wait() == 0)
    }
}

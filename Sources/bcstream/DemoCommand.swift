import ArgumentParser
import BCConsole
import BCListener
import BCMessages
import BCReplay
import BCWebSocket
import Foundation

struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Watch a scripted live end to end: a replay server and a listener in one process.",
        discussion: """
            Starts a replay server on a free loopback port with a short, realistic session built from \
            the fixtures (viewer counts, joins, comments, gifts, a cheer level-up, ending with t=8), \
            subscribes to it with the same listener `bcstream listen` uses, prints every message as it \
            is decoded, and exits 0 when the live ends. Nothing leaves the machine.
            """
    )

    @Option(help: "Output format: text or ndjson.")
    var format: MessageFormatter.Format = .text

    func run() async throws {
        let loader = FixtureFolder.loader()
        let script: DemoScript
        do {
            script = try DemoScript(catalog: loader.defaultCatalog())
        } catch {
            throw CommandFailure(error.description)
        }
        let server = try await ReplayServer(schedule: script.steps)
        guard let url = URL(string: "ws://\(server.host):\(server.port)/") else { throw ExitCode(1) }
        FileHandle.standardError.write(Data("demo: replay server on \(url.absoluteString), \(script.steps.count) messages\n".utf8))

        // A loop of its own, shut down before exiting, so the listener's close frame goes out (see listen).
        let loop = WebSocketLoop(name: "bcstream.demo")
        let listener = ChannelListener(configuration: BCListenerConfiguration(key: try ChannelKey("demo:live"), url: url), loop: loop)
        let session = ListenSession(listeners: [listener], format: format, count: nil, duration: .seconds(60))
        let outcome = try await cancellingOnInterrupt { await session.run() }
        await loop.shutdown()
        await server.stop()
        if outcome.failed || outcome.tally.perKind["liveEnded"] == nil { throw ExitCode(1) }
    }
}

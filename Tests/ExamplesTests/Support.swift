import BCReplay
import Foundation
import Synchronization
import Testing

// What the example suites share, kept out of their files: a file that holds a document's examples imports only
// what that document's examples import (and Testing), so an example cannot compile here thanks to an import it
// does not print (PrintedExamplesTests checks the imports).

/// A suite whose examples call `print`: inside the suite, `print` is this member, which keeps the line in
/// `printed` (Swift's own `print` is shadowed), so a test asserts what an example printed, as printed.
protocol PrintingExamples {
    var printed: PrintedLines { get }
}

extension PrintingExamples {
    /// Swift's `print`, written into `printed` instead of stdout.
    func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
        printed.append(items.map { String(describing: $0) }.joined(separator: separator))
    }
}

/// The lines an example printed, in order.
final class PrintedLines: Sendable {
    private let storage = Mutex<[String]>([])

    func append(_ line: String) {
        storage.withLock { $0.append(line) }
    }

    var lines: [String] { storage.withLock { $0 } }
}

/// A `ReplayServer` on a loopback port that plays the fixtures `arguments` names (names, `t`s, kinds, as
/// `bcstream replay` takes them) to any key, at once: `body` gets its URL; the server stops after `body`.
func serving<T>(_ arguments: [String], _ body: (URL) async throws -> T) async throws -> T {
    let playlist = try FixtureFolder.loader().load(arguments: arguments)
    let server = try await ReplayServer(schedule: ReplaySchedule(items: playlist.items,
                                                                 options: .init(interval: .zero)))
    do {
        let result = try await body(try #require(URL(string: "ws://\(server.host):\(server.port)/")))
        await server.stop()
        return result
    } catch {
        await server.stop()
        throw error
    }
}

/// How many fixtures `arguments` names: what a client served by `serving(arguments)` receives.
func fixtureCount(_ arguments: [String]) throws -> Int {
    try FixtureFolder.loader().load(arguments: arguments).items.count
}

#!/usr/bin/env bash
# Proof that BCStream's products travel: a small package OUTSIDE the checkout (mktemp -d) depends on
# BCStream by path and uses only its public products, as an app's tests would: every fixture decoded through
# BCFixtures and BCMessages, two of them served by ReplayServer to a ChannelListener, one audited, one printed
# as bcstream prints it (BCConsole), and a fetch refused (BCHTTP). A product that leaks an internal type, or that
# needs a file of the checkout at run time, fails here. Prints the build time.
# Usage: scripts/consumer-package.sh [--keep]   (--keep leaves the package and says where)
set -euo pipefail
checkout="$(cd "$(dirname "$0")/.." && pwd)"
consumer="$(mktemp -d "${TMPDIR:-/tmp}/bcstream-consumer.XXXXXX")"
[[ "${1:-}" == "--keep" ]] || trap 'rm -rf "$consumer"' EXIT

mkdir -p "$consumer/Sources/Consumer" "$consumer/Tests/ConsumerTests"
cat > "$consumer/Package.swift" <<SWIFT
// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "Consumer",
    platforms: [.macOS(.v15)],
    dependencies: [.package(path: "$checkout")],
    targets: [
        .target(name: "Consumer", dependencies: [.product(name: "BCMessages", package: "$(basename "$checkout")")]),
        .testTarget(name: "ConsumerTests", dependencies: [
            "Consumer",
            .product(name: "BCAudit", package: "$(basename "$checkout")"),
            .product(name: "BCConsole", package: "$(basename "$checkout")"),
            .product(name: "BCFixtures", package: "$(basename "$checkout")"),
            .product(name: "BCHTTP", package: "$(basename "$checkout")"),
            .product(name: "BCListener", package: "$(basename "$checkout")"),
            .product(name: "BCMessages", package: "$(basename "$checkout")"),
            .product(name: "BCReplay", package: "$(basename "$checkout")"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
SWIFT
cat > "$consumer/Sources/Consumer/Gifts.swift" <<'SWIFT'
import BCMessages

/// The app's own use of the model: the coins a message gives, nil when it is no gift.
public func coins(of message: BCResponse) -> Int? {
    guard case .gift(let gift) = message else { return nil }
    return gift.coins
}
SWIFT
cat > "$consumer/Tests/ConsumerTests/ConsumerTests.swift" <<'SWIFT'
import BCAudit
import BCConsole
import BCFixtures
import BCHTTP
import BCListener
import BCMessages
import BCReplay
import Consumer
import Foundation
import Testing

@Suite(.timeLimit(.minutes(1))) struct ConsumerTests {
    @Test func theFixturesComeFromTheResourceBundle() throws {
        let folder = try #require(BCFixtures.folder)
        #expect(folder.path.contains("BCStream_BCFixtures."), "read from \(folder.path)")
        #expect(BCFixtures.all.count > 100 && !BCFixtures.invalid.isEmpty)
    }

    @Test(arguments: BCFixtures.all)
    func decodes(_ fixture: BCFixture) throws {
        let message = try BCMessageDecoder().decode(Data(fixture.bytes))
        #expect(message.t == fixture.t)
        if fixture.kind == .gift { #expect(coins(of: message) != nil) }
    }

    @Test(arguments: BCFixtures.invalid)
    func rejects(_ fixture: BCFixture) throws {
        let error = #expect(throws: BCDecodingError.self) { try BCMessageDecoder().decode(Data(fixture.bytes)) }
        #expect(error?.description == fixture.expectedError)
    }

    @Test func aListenerReceivesTwoServedFixtures() async throws {
        let gift = try #require(BCFixtures.fixtures(kind: .gift).first)
        let end = try #require(BCFixtures.fixture(named: "8-live-ended-bare"))
        let server = try await ReplayServer(schedule: ReplaySchedule(items: [gift.item, end.item],
                                                                     options: .init(interval: .zero)))
        let url = try #require(URL(string: "ws://\(server.host):\(server.port)/"))
        var received: [Int] = []
        let key = try ChannelKey("118f91f:UdoBre1M")     // checked: the only way to a SUB line
        for await event in ChannelListener(configuration: BCListenerConfiguration(key: key, url: url)) {
            if case .message(let message, _, _, _) = event { received.append(message.t) }
        }
        await server.stop()
        #expect(received == [35, 8])
    }

    @Test func aMessagePrintsAsBcstreamPrintsIt() throws {
        let gift = try #require(BCFixtures.fixtures(t: 35).first)
        let json = String(decoding: gift.bytes, as: UTF8.self)
        let line = MessageFormatter(format: .ndjson).line(for: try BCMessageDecoder().decode(json), raw: json)
        #expect(line.hasPrefix(#"{"t":35,"kind":"gift","message":{"#))
    }

    @Test func aFetchOfNoHTTPURLFailsInWords() async throws {
        let request = HTTPFetchRequest(url: try #require(URL(string: "ftp://example.com/")))
        await #expect(throws: HTTPFetchFailure.invalidURL("ftp://example.com/")) { try await HTTPFetcher.fetch(request) }
    }

    @Test func theAuditTalliesAFixture() throws {
        let gift = try #require(BCFixtures.fixtures(t: 35).first)
        var json = String(decoding: gift.bytes, as: UTF8.self)      // the service adds a key
        json.insert(contentsOf: #""new_key":1,"#, at: json.index(after: try #require(json.firstIndex(of: "{"))))
        var audit = Audit()
        audit.add(message: json, at: AuditLocation(source: gift.name, line: 1))
        let report = audit.report()
        #expect(report.messages == 1)
        #expect(report.kinds.map(\.kind) == ["gift"])
        #expect(report.kinds.first?.newKeys.map(\.path) == ["new_key"])
    }
}
SWIFT

cd "$consumer"
start=$(date +%s)
swift build --build-tests 2>&1 | tee build.log | grep -E "warning:|error:" || true
grep -q "Build complete" build.log || { tail -20 build.log; echo "consumer package: build failed ($consumer)" >&2; exit 1; }
echo "consumer package: built in $(( $(date +%s) - start )) s"
swift test --skip-build 2>&1 | tee test.log | grep -E "✘|Test run with"
[[ "${1:-}" != "--keep" ]] || echo "consumer package kept in $consumer"

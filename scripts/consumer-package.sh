#!/usr/bin/env bash
# Proof that BCStream's products travel, and that the README's "Use it in a package" lines work as they
# are printed: a small package OUTSIDE the checkout (mktemp -d) whose manifest holds those lines verbatim
# (the dependency by its URL and version, the app's target), and whose test target uses only BCStream's public
# products, as an app's tests would: every fixture decoded through BCFixtures and BCMessages, two of them served by
# ReplayServer to a ChannelListener, one audited, one printed as bcstream prints it (BCConsole), and a fetch refused
# (BCHTTP). A product that leaks an internal type, or that needs a file of the checkout at run time, fails here, and
# so does a README line that no longer builds. Prints the build time.
#
# Nothing is fetched from the URL: git's environment config points it at a bare clone of this checkout's HEAD (what
# is committed; uncommitted changes are not in it), tagged with the README's version, so SwiftPM resolves that
# version from tags as it does for a user. Its repository cache and fingerprints are scratch folders of the run: a
# clone cached by an earlier run, or the fingerprint of another HEAD under the same version, cannot interfere.
# Usage: scripts/consumer-package.sh [--keep]   (--keep leaves the package and says where)
set -euo pipefail
checkout="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/bcstream-consumer.XXXXXX")"
[[ "${1:-}" == "--keep" ]] || trap 'rm -rf "$work"' EXIT
consumer="$work/consumer"
clone="$work/BCStream.git"
fail() { echo "consumer package: $*" >&2; exit 1; }

# The README's manifest lines: its Swift block between <!-- consumer-package:begin --> and
# <!-- consumer-package:end --> (Tests/ExamplesTests/PrintedExamplesTests.swift leaves that block to this script).
lines="$(awk '/^<!-- consumer-package:end -->$/ { inside = 0 }
              inside && !/^```/ { print }
              /^<!-- consumer-package:begin -->$/ { inside = 1 }' "$checkout/README.md")"
dependency='.*\.package(url: "\([^"]*\)", from: "\([^"]*\)").*'
url="$(sed -n "s/$dependency/\1/p" <<<"$lines")"
version="$(sed -n "s/$dependency/\2/p" <<<"$lines")"
target="$(sed -n 's/.*\.target(name: "\([^"]*\)".*/\1/p' <<<"$lines")"
[[ $(wc -l <<<"$url") == 1 && -n "$url" && -n "$version" && $(wc -l <<<"$target") == 1 && -n "$target" ]] ||
    fail "README.md's consumer-package block should hold one .package(url:, from:) and one .target(name:):
$lines"
package_name="$(basename "$url" .git)"

# The checkout's HEAD, alone, tagged as the README's version.
head="$(git -C "$checkout" rev-parse --verify HEAD)" || fail "$checkout is not a git checkout with a commit"
git -C "$checkout" diff --quiet HEAD -- ||
    echo "consumer package: uncommitted changes are not in it; it builds HEAD ${head:0:12}" >&2
git init --quiet --bare "$clone"
git -C "$clone" fetch --quiet --no-tags "$checkout" "$head:refs/heads/main"
git -C "$clone" symbolic-ref HEAD refs/heads/main
git -C "$clone" tag "$version" main
# One more git config entry, after any the environment has: the longest matching insteadOf wins, so this one
# beats a machine's rule for all of https://github.com/.
count="${GIT_CONFIG_COUNT:-0}"
export "GIT_CONFIG_KEY_$count=url.$clone.insteadOf" "GIT_CONFIG_VALUE_$count=$url" GIT_CONFIG_COUNT=$((count + 1))
swiftpm=(--cache-path "$work/cache" --security-path "$work/security")
# SwiftPM's lock files (named after the paths they lock) and the compiler's temporaries go there too.
mkdir -p "$work/tmp"
export TMPDIR="$work/tmp"

mkdir -p "$consumer/Sources/$target" "$consumer/Tests/ConsumerTests"
cat > "$consumer/Package.swift" <<SWIFT
// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "Consumer",
    platforms: [.macOS(.v15)],
    // README.md, "Use it in a package", as printed:
$(sed 's/^/    /' <<<"$lines")
)

// This script's tests: one more target, over every product an app's tests might take.
package.targets.append(.testTarget(name: "ConsumerTests", dependencies: [
    "$target",
    .product(name: "BCAudit", package: "$package_name"),
    .product(name: "BCConsole", package: "$package_name"),
    .product(name: "BCFixtures", package: "$package_name"),
    .product(name: "BCHTTP", package: "$package_name"),
    .product(name: "BCListener", package: "$package_name"),
    .product(name: "BCMessages", package: "$package_name"),
    .product(name: "BCReplay", package: "$package_name"),
]))
SWIFT
cat > "$consumer/Sources/$target/Gifts.swift" <<'SWIFT'
import BCMessages

/// The app's own use of the model: the coins a message gives, nil when it is no gift.
public func coins(of message: BCResponse) -> Int? {
    guard case .gift(let gift) = message else { return nil }
    return gift.coins
}
SWIFT
{ echo "import $target"; cat <<'SWIFT'; } > "$consumer/Tests/ConsumerTests/ConsumerTests.swift"
import BCAudit
import BCConsole
import BCFixtures
import BCHTTP
import BCListener
import BCMessages
import BCReplay
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
swift build --build-tests "${swiftpm[@]}" 2>&1 | tee build.log | grep -E "warning:|error:" || true
grep -q "Build complete" build.log || { tail -20 build.log; fail "build failed ($consumer)"; }
grep -q "Computed $url at $version" build.log || fail "$url was not resolved at $version ($consumer/build.log)"
echo "consumer package: $url $version (HEAD ${head:0:12}) built in $(( $(date +%s) - start )) s"
swift test --skip-build "${swiftpm[@]}" 2>&1 | tee test.log | grep -E "✘|Test run with"
[[ "${1:-}" != "--keep" ]] || echo "consumer package kept in $consumer"

import BCMessages
import Foundation
import Testing

/// The release is written once (`BCStreamVersion.current`); everything that repeats it for a reader must say the
/// same: what `bcstream --version` prints, the README's dependency line, the CHANGELOG's newest entry.
@Suite("One version")
struct VersionTests {
    private func text(_ path: String) throws -> String {
        try String(contentsOf: BCStreamProcess.repository.appendingPathComponent(path), encoding: .utf8)
    }

    /// The articles of every DocC catalogue (`Sources/<Target>/<Target>.docc`, `Tests/BCFixtures.docc`).
    private func doccArticles() throws -> [String] {
        let files = FileManager.default
        var articles: [String] = []
        for folder in ["Sources", "Tests"] {
            let root = BCStreamProcess.repository.appendingPathComponent(folder).path
            for entry in try files.contentsOfDirectory(atPath: root) {
                for catalogue in [entry, "\(entry)/\(entry).docc"] where catalogue.hasSuffix(".docc") {
                    let path = "\(folder)/\(catalogue)"
                    guard let contents = try? files.contentsOfDirectory(atPath: "\(root)/\(catalogue)") else { continue }
                    articles += contents.filter { $0.hasSuffix(".md") }.map { "\(path)/\($0)" }
                }
            }
        }
        #expect(articles.count > 10, "DocC articles not found: \(articles)")
        return articles.sorted()
    }

    @Test("bcstream --version prints BCStreamVersion.current")
    func theCommandPrintsIt() throws {
        let result = try BCStreamProcess.run(["--version"])
        #expect(result.status == 0)
        #expect(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == BCStreamVersion.current)
    }

    @Test("the README's `from:` and every DocC article's depend on this release")
    func theDependencyLinesNameIt() throws {
        var found: [(file: String, version: String)] = []
        for file in try ["README.md"] + doccArticles() {
            for match in try text(file).matches(of: /BCStream\.git", from: "([^"]*)"/) {
                found.append((file, String(match.1)))
            }
        }
        #expect(found.contains { $0.file == "README.md" }, "no `.package(url: …BCStream.git\", from: …)` in README.md")
        for (file, version) in found {
            #expect(version == BCStreamVersion.current, "\(file) says from: \"\(version)\"")
        }
    }

    @Test("the CHANGELOG's newest release is this one")
    func theChangelogStartsWithIt() throws {
        let releases = try text("CHANGELOG.md").split(separator: "\n")
            .compactMap { $0.firstMatch(of: /^## \[([^\]]+)\]/).map { String($0.1) } }
            .filter { $0 != "Unreleased" }
        #expect(releases.first == BCStreamVersion.current, "CHANGELOG.md's releases: \(releases.prefix(3))")
    }
}

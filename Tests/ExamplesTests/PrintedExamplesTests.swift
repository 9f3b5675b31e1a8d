import Foundation
import Testing

/// Every Swift example printed in the README and in the DocC articles is compiled, exactly as printed, by a file
/// of this target (issue 38): each ```swift block of README.md and of every `*.docc/*.md` under Sources/ and
/// Tests/ must equal one marked region of the Swift files beside this one, and each region must still be printed.
///
/// A region is the lines between
///
///     // >>> printed in <document, from the repository root>
///     // <<< printed
///
/// compared after removing their common indentation, trailing whitespace and blank lines at either end. A block's
/// leading `import` lines are not part of its region (a region lies inside a suite, where `import` cannot be):
/// they are the imports of the one file that holds the document's regions, and that file imports nothing else
/// but Testing, so no example compiles here thanks to an import it does not print.
///
/// One block is not compiled here: the README's package manifest fragment (between `<!-- consumer-package:begin -->`
/// and `<!-- consumer-package:end -->`), which `scripts/consumer-package.sh` copies into a package's manifest and
/// builds. A block between those markers passes only where that script reads them.
@Suite("Printed examples")
struct PrintedExamplesTests {
    static let catalogue = PrintedCatalogue.load()

    @Test("the documents, their Swift blocks and the marked regions are found, and the markers are well formed")
    func everythingIsFound() throws {
        let catalogue = Self.catalogue
        #expect(catalogue.problems.isEmpty, "\(catalogue.problems.joined(separator: "\n"))")
        #expect(catalogue.documents.contains("README.md"))
        #expect(catalogue.documents.filter { $0.contains(".docc/") }.count >= 10, "\(catalogue.documents)")
        #expect(catalogue.blocks.count >= 15 && catalogue.regions.count >= 15,
                "\(catalogue.blocks.count) blocks, \(catalogue.regions.count) regions")
    }

    @Test("each printed Swift block is exactly one marked region of its document's file",
          arguments: PrintedExamplesTests.catalogue.blocks)
    func printedBlockIsCompiled(_ block: PrintedBlock) throws {
        let catalogue = Self.catalogue
        if block.consumerPackage {
            try checkConsumerPackageBlock(block)
            return
        }
        let ofDocument = catalogue.regions.filter { $0.document == block.document }
        let matches = ofDocument.filter { $0.lines == block.code }
        guard matches.count == 1, let region = matches.first else {
            if matches.isEmpty {
                let hint = closest(to: block, in: ofDocument)
                Issue.record("no region printed in \(block.document) has this text; \(hint)")
            } else {
                Issue.record("more than one region has this text: \(matches.map(\.testDescription))")
            }
            return
        }
        let fileImports = catalogue.imports[region.file] ?? []
        for module in block.imports {
            #expect(fileImports.contains(module), "\(region.file) does not import \(module), which the block imports")
        }
    }

    @Test("each marked region is still printed in the document it names",
          arguments: PrintedExamplesTests.catalogue.regions)
    func regionIsPrinted(_ region: MarkedRegion) {
        let catalogue = Self.catalogue
        #expect(catalogue.documents.contains(region.document), "\(region.document) is not a document")
        let blocks = catalogue.blocks.filter { $0.document == region.document && !$0.consumerPackage }
        #expect(blocks.contains { $0.code == region.lines },
                "a stale copy: no Swift block of \(region.document) has this text any more")
    }

    @Test("a file of examples holds one document's regions and imports only what that document's examples import",
          arguments: PrintedExamplesTests.catalogue.exampleFiles)
    func fileImportsOnlyWhatItsDocumentPrints(_ file: String) {
        let catalogue = Self.catalogue
        let documents = Set(catalogue.regions.filter { $0.file == file }.map(\.document))
        #expect(documents.count == 1, "\(file) holds the regions of \(documents.sorted())")
        guard documents.count == 1, let document = documents.first else { return }
        let files = Set(catalogue.regions.filter { $0.document == document }.map(\.file))
        #expect(files == [file], "the regions of \(document) are in \(files.sorted()): keep them in one file")
        let printed = Set(catalogue.blocks.filter { $0.document == document }.flatMap(\.imports))
        let imported = Set(catalogue.imports[file] ?? [])
        #expect(imported.subtracting(["Testing"]) == printed.subtracting(["Testing"]),
                "\(file) imports \(imported.sorted()); \(document)'s examples import \(printed.sorted())")
    }

    /// The README's manifest fragment: `scripts/consumer-package.sh` takes the lines between the markers.
    private func checkConsumerPackageBlock(_ block: PrintedBlock) throws {
        #expect(block.document == "README.md", "only the README's fragment is read by consumer-package.sh")
        let script = try String(contentsOf: PrintedCatalogue.root.appendingPathComponent("scripts/consumer-package.sh"),
                                encoding: .utf8)
        for needle in [PrintedCatalogue.consumerBegin, PrintedCatalogue.consumerEnd, "README.md"] {
            let read = script.contains(needle)
            #expect(read, "scripts/consumer-package.sh does not read \(needle)")
        }
        for line in block.lines {
            #expect(line.hasPrefix("dependencies: ") || line.hasPrefix("targets: "),
                    "consumer-package.sh takes `dependencies:` and `targets:` lines; not: \(line)")
        }
    }

    /// Where the block and the region of its document that starts most like it part.
    private func closest(to block: PrintedBlock, in regions: [MarkedRegion]) -> String {
        func common(_ region: MarkedRegion) -> Int {
            zip(block.code, region.lines).prefix { $0 == $1 }.count
        }
        guard let region = regions.max(by: { common($0) < common($1) }) else {
            return "no region names \(block.document)"
        }
        let index = common(region)
        let printed = index < block.code.count ? block.code[index] : "(the block ends)"
        let copied = index < region.lines.count ? region.lines[index] : "(the region ends)"
        return "closest: \(region.testDescription), which parts at line \(index + 1) of the code:\n"
            + "  printed: \(printed)\n  region:  \(copied)"
    }
}

/// One ```swift block of a document, normalized.
struct PrintedBlock: Sendable, CustomTestStringConvertible {
    /// The document's path from the repository root.
    let document: String
    /// Its place among the document's Swift blocks, from 1.
    let number: Int
    /// The line of its opening fence, from 1.
    let line: Int
    let lines: [String]
    /// Between `<!-- consumer-package:begin -->` and `<!-- consumer-package:end -->`.
    let consumerPackage: Bool
    /// The modules of its leading `import` lines.
    let imports: [String]
    /// The rest: what a region holds.
    let code: [String]

    var testDescription: String { "\(document), Swift block \(number) (line \(line))" }
}

/// The lines between `// >>> printed in <document>` and `// <<< printed`, normalized.
struct MarkedRegion: Sendable, CustomTestStringConvertible {
    /// The Swift file's path from the repository root.
    let file: String
    /// The line of the opening marker, from 1.
    let line: Int
    let document: String
    let lines: [String]

    var testDescription: String { "\(file):\(line) (printed in \(document))" }
}

/// The documents' blocks and the regions of this target's files, read once.
struct PrintedCatalogue: Sendable {
    static let consumerBegin = "<!-- consumer-package:begin -->"
    static let consumerEnd = "<!-- consumer-package:end -->"
    /// This target's folder, and the repository's root two folders up.
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    static let root = folder.deletingLastPathComponent().deletingLastPathComponent()

    var documents: [String] = []
    var blocks: [PrintedBlock] = []
    var regions: [MarkedRegion] = []
    /// The Swift files that hold regions.
    var exampleFiles: [String] = []
    /// Each Swift file's `import`s at file scope.
    var imports: [String: [String]] = [:]
    /// What is wrong with the files themselves: a marker out of place, a file that cannot be read.
    var problems: [String] = []

    static func load() -> PrintedCatalogue {
        var catalogue = PrintedCatalogue()
        catalogue.documents = ["README.md"]
            + (markdownInCatalogues(under: "Sources") + markdownInCatalogues(under: "Tests")).sorted()
        for document in catalogue.documents {
            guard let text = read(document, into: &catalogue.problems) else { continue }
            catalogue.blocks += swiftBlocks(of: text, document: document, problems: &catalogue.problems)
        }
        let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        let prefix = relative(folder.path)
        for name in files.filter({ $0.hasSuffix(".swift") }).sorted() {
            let file = prefix + "/" + name
            guard let text = read(file, into: &catalogue.problems) else { continue }
            catalogue.imports[file] = fileImports(of: text)
            // This file names the markers without being a file of examples.
            guard name != URL(fileURLWithPath: #filePath).lastPathComponent else { continue }
            let regions = markedRegions(of: text, file: file, problems: &catalogue.problems)
            if !regions.isEmpty { catalogue.exampleFiles.append(file) }
            catalogue.regions += regions
        }
        return catalogue
    }

    /// `*.docc/*.md` of every catalogue under `top` (Sources/X/X.docc, Tests/X.docc).
    private static func markdownInCatalogues(under top: String) -> [String] {
        let path = root.appendingPathComponent(top).path
        guard let walker = FileManager.default.enumerator(atPath: path) else { return [] }
        var found: [String] = []
        while let path = walker.nextObject() as? String {
            let url = URL(fileURLWithPath: path)
            if url.pathExtension == "md", url.deletingLastPathComponent().pathExtension == "docc" {
                found.append(top + "/" + path)
            }
        }
        return found
    }

    private static func read(_ path: String, into problems: inout [String]) -> String? {
        do {
            return try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
        } catch {
            problems.append("\(path): \(error)")
            return nil
        }
    }

    private static func relative(_ path: String) -> String {
        let rootPath = root.standardizedFileURL.path
        let standard = URL(fileURLWithPath: path).standardizedFileURL.path
        return standard.hasPrefix(rootPath + "/") ? String(standard.dropFirst(rootPath.count + 1)) : standard
    }

    /// The fenced blocks whose info string is `swift`, as CommonMark delimits fences (``` or ~~~, closed by a run
    /// of the same character at least as long).
    static func swiftBlocks(of text: String, document: String, problems: inout [String]) -> [PrintedBlock] {
        let lines = text.components(separatedBy: "\n")
        var blocks: [PrintedBlock] = []
        var index = 0
        while index < lines.count {
            let opening = lines[index].drop { $0 == " " }
            guard let fence = opening.first, fence == "`" || fence == "~" else { index += 1; continue }
            let length = opening.prefix { $0 == fence }.count
            guard length >= 3 else { index += 1; continue }
            let info = opening.dropFirst(length).trimmingCharacters(in: .whitespaces)
            var end = index + 1
            while end < lines.count {
                let candidate = lines[end].trimmingCharacters(in: .whitespaces)
                if candidate.count >= length, candidate.allSatisfy({ $0 == fence }) { break }
                end += 1
            }
            if end == lines.count { problems.append("\(document):\(index + 1): a fence that is never closed") }
            if info == "swift" {
                let body = normalized(Array(lines[(index + 1)..<min(end, lines.count)]))
                let isBlank = { (line: String) in line.trimmingCharacters(in: .whitespaces).isEmpty }
                let before = lines[..<index].last { !isBlank($0) }
                let after = lines[min(end + 1, lines.count)...].first { !isBlank($0) }
                let consumer = before?.trimmingCharacters(in: .whitespaces) == consumerBegin
                    && after?.trimmingCharacters(in: .whitespaces) == consumerEnd
                let importCount = body.prefix { $0.isEmpty || importedModule($0) != nil }.count
                blocks.append(PrintedBlock(
                    document: document, number: blocks.count + 1, line: index + 1, lines: body,
                    consumerPackage: consumer,
                    imports: body.prefix(importCount).compactMap(importedModule),
                    code: normalized(Array(body.dropFirst(importCount)))))
            }
            index = end + 1
        }
        return blocks
    }

    static let beginMarker = "// >>> printed in "
    static let endMarker = "// <<< printed"

    /// The regions of a Swift file. A marker that is not exactly one of the two forms, a region inside another or
    /// one never closed is a problem, not a region.
    static func markedRegions(of text: String, file: String, problems: inout [String]) -> [MarkedRegion] {
        var regions: [MarkedRegion] = []
        var open: (line: Int, document: String, lines: [String])?
        for (index, raw) in text.components(separatedBy: "\n").enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix(beginMarker) {
                let document = String(line.dropFirst(beginMarker.count))
                if let open {
                    problems.append("\(file):\(index + 1): a region begins inside the one of line \(open.line)")
                }
                if document.isEmpty || document.contains(" ") {
                    problems.append("\(file):\(index + 1): `\(beginMarker)` takes one document path")
                }
                open = (index + 1, document, [])
            } else if line == endMarker {
                guard let region = open else {
                    problems.append("\(file):\(index + 1): `\(endMarker)` without a region")
                    continue
                }
                regions.append(MarkedRegion(file: file, line: region.line, document: region.document,
                                            lines: normalized(region.lines)))
                open = nil
            } else if line.contains(">>> printed") || line.contains("<<< printed") {
                problems.append("\(file):\(index + 1): a malformed marker: \(line)")
            } else {
                open?.lines.append(raw)
            }
        }
        if let open { problems.append("\(file):\(open.line): a region never closed") }
        return regions
    }

    /// The modules imported at file scope (a line `import X` at the start of a line).
    static func fileImports(of text: String) -> [String] {
        text.components(separatedBy: "\n").filter { !$0.hasPrefix(" ") }.compactMap(importedModule)
    }

    private static func importedModule(_ line: String) -> String? {
        let words = line.split(separator: " ")
        return words.count == 2 && words[0] == "import" ? String(words[1]) : nil
    }

    /// Trailing whitespace removed from each line, blank lines removed at both ends, then the indentation the
    /// lines have in common.
    static func normalized(_ lines: [String]) -> [String] {
        var trimmed = lines.map { String($0.reversed().drop { $0 == " " || $0 == "\t" || $0 == "\r" }.reversed()) }
        while trimmed.first?.isEmpty == true { trimmed.removeFirst() }
        while trimmed.last?.isEmpty == true { trimmed.removeLast() }
        let indent = trimmed.filter { !$0.isEmpty }.map { $0.prefix { $0 == " " }.count }.min() ?? 0
        return trimmed.map { $0.isEmpty ? $0 : String($0.dropFirst(indent)) }
    }
}

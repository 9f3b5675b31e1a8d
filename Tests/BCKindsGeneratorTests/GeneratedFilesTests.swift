import BCKindsGenerator
import Foundation
import Testing

/// What `bcstream-codegen` finds stale and what it removes, in a folder of its own: generated files are the
/// `*.generated.swift` ones (and, from before they were so named, those that open with the marker); the
/// hand-written files beside them are never touched.
@Suite struct GeneratedFilesTests {
    static let catalogue = Catalogue(kinds: [Kind(23, "viewerCountChanged", "viewer counters", app: nil, .captured,
        Struct("ViewerCountChanged", doc: "t=23: the viewer counters.", [
            .required("online_viewer_num", "onlineViewerCount", .int, "viewers watching now."),
        ]))])

    /// A folder holding what the generator writes, plus `extra` (path → text); removed after `body`.
    func withFolder(_ extra: [String: String], _ body: (URL, [GeneratedFile]) throws -> Void) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("generated-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let files = try KindsGenerator.files(for: Self.catalogue)
        try KindsGenerator.write(files, to: folder)
        for (path, text) in extra {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        try body(folder, files)
    }

    @Test func everyGeneratedFileIsNamedSo() throws {
        let paths = try KindsGenerator.files(for: Self.catalogue).map(\.path)
        #expect(paths == ["BCResponse.generated.swift", "BCType+NDJSONSchema.generated.swift",
                          "BCType+WireFields.generated.swift", "BCType.generated.swift",
                          "Kinds/ViewerCountChanged.generated.swift"])
    }

    @Test func freshFilesBesideHandWrittenOnesAreNotStale() throws {
        try withFolder(["Kinds/ViewerCountChanged+Total.swift": "extension BCResponse.ViewerCountChanged {}\n"]) {
            folder, files in
            let stale = try KindsGenerator.staleFiles(files, in: folder)
            #expect(stale == [])
        }
    }

    /// A generated file no longer declared is stale and removed: by its name, or by the marker for a file named as
    /// generated files were before `.generated.swift` (as a branch from before the rename writes them). The
    /// hand-written files beside them stay.
    @Test func undeclaredGeneratedFilesAreStaleAndRemovedHandWrittenOnesStay() throws {
        let generatedBefore = KindsGenerator.marker + " from Catalogue/Kinds/ViewerCountChanged.swift; edit there.\n"
        let extra = [
            "Kinds/ViewerCountChanged.swift": generatedBefore,
            "Kinds/Gone.generated.swift": "// edited by hand, still the generator's by its name\n",
            "Kinds/Gift+AvatarUserIDList.swift": "extension BCResponse.Gift {}\n",
            "BCType+Info.swift": "// BCType's accessors\n",
        ]
        try withFolder(extra) { folder, files in
            #expect(try KindsGenerator.staleFiles(files, in: folder)
                    == ["Kinds/Gone.generated.swift", "Kinds/ViewerCountChanged.swift"])
            try KindsGenerator.write(files, to: folder)
            #expect(try KindsGenerator.staleFiles(files, in: folder) == [])
            let left = try FileManager.default.subpathsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }
            #expect(left.sorted() == (files.map(\.path) + ["BCType+Info.swift", "Kinds/Gift+AvatarUserIDList.swift"]).sorted())
        }
    }

    /// A generated file edited by hand is stale, and rewritten.
    @Test func anEditedGeneratedFileIsStaleAndRewritten() throws {
        try withFolder(["BCType.generated.swift": "// edited\n"]) { folder, files in
            #expect(try KindsGenerator.staleFiles(files, in: folder) == ["BCType.generated.swift"])
            try KindsGenerator.write(files, to: folder)
            let text = try String(contentsOf: folder.appendingPathComponent("BCType.generated.swift"), encoding: .utf8)
            #expect(text == files.first { $0.path == "BCType.generated.swift" }?.contents)
        }
    }
}

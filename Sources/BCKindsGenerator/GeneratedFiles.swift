import Foundation

extension KindsGenerator {
    /// The paths (relative to `directory`) whose text differs from `files`: changed, missing, or generated
    /// earlier but no longer declared.
    public static func staleFiles(_ files: [GeneratedFile], in directory: URL) throws -> [String] {
        var stale: [String] = []
        for file in files {
            let current = try? String(contentsOf: directory.appendingPathComponent(file.path), encoding: .utf8)
            if current != file.contents { stale.append(file.path) }
        }
        let wanted = Set(files.map(\.path))
        stale += try existingGeneratedFiles(in: directory).filter { !wanted.contains($0) }
        return stale.sorted()
    }

    /// Writes every file, and removes the generated files that are no longer declared.
    public static func write(_ files: [GeneratedFile], to directory: URL) throws {
        let wanted = Set(files.map(\.path))
        for path in try existingGeneratedFiles(in: directory) where !wanted.contains(path) {
            try FileManager.default.removeItem(at: directory.appendingPathComponent(path))
        }
        for file in files {
            let url = directory.appendingPathComponent(file.path)
            let current = try? String(contentsOf: url, encoding: .utf8)
            guard current != file.contents else { continue }
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try file.contents.write(to: url, atomically: true, encoding: .utf8)
        }
    }

    /// Every generated file below `directory`: each `*.generated.swift`, and each other `.swift` file that starts
    /// with the generator's marker (the names generated files had before they ended in `.generated.swift`, so that
    /// a branch that still writes them is cleaned up rather than left declaring every struct twice).
    static func existingGeneratedFiles(in directory: URL) throws -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: directory.path) else { return [] }
        var paths: [String] = []
        while let path = enumerator.nextObject() as? String {
            guard path.hasSuffix(".swift") else { continue }
            if path.hasSuffix(suffix) {
                paths.append(path)
            } else if let text = try? String(contentsOf: directory.appendingPathComponent(path), encoding: .utf8),
                      text.hasPrefix(marker) {
                paths.append(path)
            }
        }
        return paths.sorted()
    }
}

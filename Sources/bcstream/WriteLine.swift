import Foundation

/// Writes one line to stdout at once, unbuffered: a live session's output must reach a pipe (`| jq`, a
/// test reading the replay URL) as it happens, not when a buffer fills.
func writeLine(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

// Shared by every target (Fuzz/run.sh compiles Fuzz/*.swift into each): an assertion that says what failed in an
// optimized build, where `precondition` traps without its message.

/// Traps with `message` when `condition` is false; libFuzzer keeps the input that did it.
@inline(__always)
func require(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String = "",
             file: StaticString = #fileID, line: UInt = #line) {
    if !condition() { fatalError(message(), file: file, line: line) }
}

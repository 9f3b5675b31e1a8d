/// Untrusted bytes quoted for an error message: printable ASCII as it is, anything else as an escape, so that an
/// answer's text never reaches a terminal raw.
enum TerminalSafeBytes {
    static func quoted<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> String {
        var text = "\""
        for byte in bytes {
            switch byte {
            case 0x20..<0x7F where byte != 0x22 && byte != 0x5C: text.unicodeScalars.append(Unicode.Scalar(byte))
            case 0x22: text += "\\\""
            case 0x5C: text += "\\\\"
            default: text += "\\x" + String(byte, radix: 16, uppercase: false).leftPadded(to: 2)
            }
        }
        return text + "\""
    }
}

private extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}

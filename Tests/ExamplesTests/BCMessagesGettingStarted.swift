import BCMessages
import Testing

/// BCMessages' getting-started article, its example as printed there, run.
@Suite("BCMessages getting started")
struct BCMessagesGettingStarted: PrintingExamples {
    let printed = PrintedLines()

    @Test("a gift whose count is a string on the wire decodes, typed, and prints its count as an Int")
    func decoding() throws {
        // >>> printed in Sources/BCMessages/BCMessages.docc/GettingStarted.md
        let json = #"{"t":35,"u":"100000001","ac":"Taro","gift_id":"2","gift_title":"Heart","coins":"1","count":"8"}"#
        let decoder = BCMessageDecoder()               // lenient: unknown kinds kept, unknown keys ignored
        switch try decoder.decode(json) {
        case .gift(let gift):
            print("\(gift.user.name) sent \(gift.giftTitle) ×\(gift.count)")   // count was "8" on the wire: Int here
        case .comment(let comment):
            print("\(comment.user.name): \(comment.text)")
        case .unknown(let unknown):
            print("new kind t=\(unknown.t)")                                   // normal traffic, never a crash
        default:
            break
        }
        // <<< printed
        #expect(printed.lines == ["Taro sent Heart ×8"])
    }
}

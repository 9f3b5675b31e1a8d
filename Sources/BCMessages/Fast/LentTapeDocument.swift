/// A document scanned for one decode (`TapeDocument.lend(scanning:)`), read through `document` without a retain
/// or a release, and given back once the decode is over.
struct LentTapeDocument {
    /// Unretained when it is the thread's (the thread holds it), retained when it is one of its own.
    let document: Unmanaged<TapeDocument>
    /// The state of the thread that lent it (the thread holds it too); nil for a document of its own.
    let thread: Unmanaged<DecodeThreadState>?

    /// Ends the loan: the thread's document is emptied for the next message, unless something still holds it
    /// (then the thread lets it go, and makes another); one of its own is released.
    func giveBack() {
        if let thread {
            thread._withUnsafeGuaranteedRef { $0.documentGivenBack(document) }
        } else {
            document.release()
        }
    }
}

import DecantCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Runs `body` over the bytes of `storage`.
func withBytes(
    _ storage: some ContiguousBytes, _ body: (UnsafeRawBufferPointer) throws(SerializationError) -> Void
) throws(SerializationError) {
    var failure: SerializationError?
    storage.withUnsafeBytes { raw in
        do throws(SerializationError) {
            try body(raw)
        } catch {
            failure = error
        }
    }
    if let failure { throw failure }
}

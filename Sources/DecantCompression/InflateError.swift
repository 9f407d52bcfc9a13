/// Why ``Inflate`` failed: what kind of failure, a sentence saying what is wrong, and where.
///
/// This module depends on nothing, so its errors are its own; DecantCore turns one into the `SerializationError` with
/// the same code, message and offset (`SerializationError(_:)`), which is what the content decoding stage and the
/// image decoders throw.
package struct InflateError: Error, Sendable, Hashable {
    /// The kind of failure, named after the `SerializationError.Code` it becomes.
    package enum Code: Sendable, Hashable {
        /// The data is malformed, or a checksum is wrong.
        case invalidBody
        /// The data ends before its end marker or checksum.
        case truncatedBody
        /// The output would exceed the caller's limit.
        case limitExceeded
        /// The data needs a feature this decoder does not have (a zlib preset dictionary).
        case unsupportedFeature
    }

    /// The kind of failure.
    package var code: Code
    /// What failed and how to fix it, as a sentence.
    package var message: String
    /// The byte offset of the problem in the input, when known.
    package var offset: Int?

    /// Creates an error.
    package init(code: Code, message: String, offset: Int? = nil) {
        self.code = code
        self.message = message
        self.offset = offset
    }
}

/// Why a string is not a media type, and where the problem is.
public struct MediaTypeParsingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The text that was parsed.
    public let input: String
    /// The UTF-8 byte offset in ``input`` where parsing failed.
    public let offset: Int
    /// What is wrong, as a sentence fragment such as "the subtype is empty".
    public let reason: String

    /// Creates an error for `input` at byte `offset`.
    public init(input: String, offset: Int, reason: String) {
        self.input = input
        self.offset = offset
        self.reason = reason
    }

    /// A sentence naming the input, the problem and its offset, with a hint at the expected form.
    public var description: String {
        let shown = input.count > 120 ? String(input.prefix(120)) + "…" : input
        return "\"\(shown)\" is not a valid media type: \(reason) (at byte \(offset)); "
            + "expected the form type/subtype;name=value, for example application/json;charset=utf-8."
    }
}

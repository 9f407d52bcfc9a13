/// A coding key for what a `Decoder` over a value tree adds to a coding path itself: a map key or field name, or the
/// index of an array element.
///
/// ```swift
/// let path: [any CodingKey] = [DecodingKey("items"), DecodingKey(index: 2)]  // items[2]
/// ```
public struct DecodingKey: CodingKey, Sendable, Hashable {
    /// The name, or the index written in decimal.
    public var stringValue: String
    /// The index, for an array element.
    public var intValue: Int?

    /// A key for the name `name`.
    public init(_ name: String) {
        stringValue = name
        intValue = nil
    }

    /// A key for the array element at `index`.
    public init(index: Int) {
        stringValue = String(index)
        intValue = index
    }

    /// A key for the name `stringValue`.
    public init(stringValue: String) { self.init(stringValue) }

    /// A key for the array element at `intValue`.
    public init(intValue: Int) { self.init(index: intValue) }
}

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// What a format's value tree makes of what an `Encodable` value encodes: the constructors ``ValueTreeEncoder``
/// builds the tree with, and the names its error messages give.
///
/// A conforming type is a namespace (an enum without cases serves); the tree type is its ``Tree``. Everything else,
/// the containers, the key strategy, the choice between the date and data strategies, the depth limit and the
/// errors, is ``ValueTreeEncoder``'s, the same for every format.
///
/// ```swift
/// enum CBORTree: TreeEncodingFormat {
///     static let name = "CBOR"
///     static let maxDepthOption = "CBOREncoder.maxDepth"
///     static var null: CBORValue { .null }
///     static func leaf(_ value: String) -> CBORValue { .text(value) }
///     // ...
/// }
/// let value = try ValueTreeEncoder<CBORTree>().encode(["a": 1])
/// ```
public protocol TreeEncodingFormat {
    /// The type of the tree's values (`CBORValue`, `MessagePackValue`).
    associatedtype Tree

    /// The format's name in error messages: "The `T` value could not be encoded as *name*".
    static var name: String { get }
    /// The option that raises the depth limit, named in the message of a `limitExceeded` error
    /// (`"CBOREncoder.maxDepth"`).
    static var maxDepthOption: String { get }

    /// What `nil` is (`encodeNil()`).
    static var null: Tree { get }
    /// A `Bool`.
    static func leaf(_ value: Bool) -> Tree
    /// A `String`; also `Data` under the `.base64` strategy.
    static func leaf(_ value: String) -> Tree
    /// A `Double`; also a `Date` under the `.secondsSince1970` and `.millisecondsSince1970` strategies.
    static func leaf(_ value: Double) -> Tree
    /// A `Float`.
    static func leaf(_ value: Float) -> Tree
    /// A signed integer (`Int`, `Int8` to `Int64`), widened to `Int64`.
    static func leaf(_ value: Int64) -> Tree
    /// An unsigned integer (`UInt`, `UInt8` to `UInt64`), widened to `UInt64`.
    static func leaf(_ value: UInt64) -> Tree
    /// An array: what an unkeyed container encoded, in order.
    static func array(_ elements: [Tree]) -> Tree
    /// A map with string keys: what a keyed container encoded, in the order the keys were first encoded (each key
    /// once). Also what a value whose `encode(to:)` encodes nothing is, with no entries.
    static func map(_ entries: [(key: String, value: Tree)]) -> Tree

    /// A `Date` when the date strategy is `nil`, the format's own representation.
    static func date(_ date: Date) -> Tree
    /// A `Date` under the `.iso8601` and `.iso8601WithFractionalSeconds` strategies, from its RFC 3339 text.
    static func iso8601(_ text: String) -> Tree
    /// `Data` when the data strategy is `nil`, the format's own representation.
    static func data(_ data: Data) -> Tree
}

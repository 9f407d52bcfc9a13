/// A single-value container that decodes every fixed-width integer type through one generic method, the
/// ``decodeInteger(_:)`` it implements: the ten `decode(_:)` requirements for `Int`, `Int8`, ... `UInt64` come from
/// this protocol and call it.
///
/// ```swift
/// struct FieldDecoder: Decoder, IntegerDecodingContainer {
///     let value: String
///     func decodeInteger<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
///         guard let number = T(value) else { throw DecodingError.typeMismatch(type, ...) }
///         return number
///     }
///     // decodeNil(), decode(_: Bool.Type), decode(_: String.Type), the floating-point types, decode<T>(_:) ...
/// }
/// ```
public protocol IntegerDecodingContainer: SingleValueDecodingContainer {
    /// The value as a `T`, or an error when it is not an integer `T` holds exactly.
    ///
    /// - Throws: `DecodingError`, usually `typeMismatch` or `dataCorrupted`.
    func decodeInteger<T: FixedWidthInteger>(_ type: T.Type) throws -> T
}

extension IntegerDecodingContainer {
    /// The value as an `Int` (``decodeInteger(_:)``).
    @inlinable public func decode(_ type: Int.Type) throws -> Int { try decodeInteger(type) }
    /// The value as an `Int8` (``decodeInteger(_:)``).
    @inlinable public func decode(_ type: Int8.Type) throws -> Int8 { try decodeInteger(type) }
    /// The value as an `Int16` (``decodeInteger(_:)``).
    @inlinable public func decode(_ type: Int16.Type) throws -> Int16 { try decodeInteger(type) }
    /// The value as an `Int32` (``decodeInteger(_:)``).
    @inlinable public func decode(_ type: Int32.Type) throws -> Int32 { try decodeInteger(type) }
    /// The value as an `Int64` (``decodeInteger(_:)``).
    @inlinable public func decode(_ type: Int64.Type) throws -> Int64 { try decodeInteger(type) }
    /// The value as a `UInt` (``decodeInteger(_:)``).
    @inlinable public func decode(_ type: UInt.Type) throws -> UInt { try decodeInteger(type) }
    /// The value as a `UInt8` (``decodeInteger(_:)``).
    @inlinable public func decode(_ type: UInt8.Type) throws -> UInt8 { try decodeInteger(type) }
    /// The value as a `UInt16` (``decodeInteger(_:)``).
    @inlinable public func decode(_ type: UInt16.Type) throws -> UInt16 { try decodeInteger(type) }
    /// The value as a `UInt32` (``decodeInteger(_:)``).
    @inlinable public func decode(_ type: UInt32.Type) throws -> UInt32 { try decodeInteger(type) }
    /// The value as a `UInt64` (``decodeInteger(_:)``).
    @inlinable public func decode(_ type: UInt64.Type) throws -> UInt64 { try decodeInteger(type) }
}

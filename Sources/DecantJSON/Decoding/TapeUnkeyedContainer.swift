#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The unkeyed container of an array on the tape: a cursor over its elements.
struct TapeUnkeyedContainer: UnkeyedDecodingContainer {
    let decoder: TapeDecoder
    /// The tape index of the next element (``end`` when all were read).
    private var position: Int
    private let end: Int
    let base: PathBase
    let count: Int?
    private(set) var currentIndex = 0

    init(decoder: TapeDecoder, array: Int, base: PathBase) {
        self.decoder = decoder
        position = array + 1
        end = decoder.end(of: array)
        self.base = base
        count = decoder.storage.count(of: array)
    }

    var codingPath: [any CodingKey] { decoder.codingPath(base) }

    var isAtEnd: Bool { currentIndex >= count! }

    @inline(__always)
    private mutating func advance() {
        position = decoder.end(of: position)
        currentIndex += 1
    }

    /// The tape index of the next element, or the error `JSONDecoder` throws at the end.
    @inline(__always)
    private func next(_ type: Any.Type, _ message: String = "Unkeyed container is at end.") throws(DecodingError) -> Int
    {
        guard position < end else {
            throw DecodingError.valueNotFound(
                type,
                DecodingError.Context(
                    codingPath: decoder.codingPath(base, appending: .index(currentIndex)), debugDescription: message))
        }
        return position
    }

    @inline(__always)
    private mutating func scalar<T>(_ type: T.Type) throws -> T {
        let index = try next(T.self)
        do throws(TapeFailure) {
            let value = try decoder.readScalar(index, T.self)
            advance()
            return value
        } catch {
            throw decoder.decodingError(error, codingPath: decoder.codingPath(base, appending: .index(currentIndex)))
        }
    }

    @inline(__always)
    private mutating func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        let index = try next(T.self)
        do throws(TapeFailure) {
            let value = try decoder.readInteger(index, T.self)
            advance()
            return value
        } catch {
            throw decoder.decodingError(error, codingPath: decoder.codingPath(base, appending: .index(currentIndex)))
        }
    }

    /// Like `JSONDecoder`: `nil` for `null` and past the end, and the index moves on either way.
    @inline(__always)
    private mutating func skipIfAbsent() -> Bool {
        guard position < end else {
            currentIndex += 1
            return true
        }
        if decoder.isNull(position) {
            advance()
            return true
        }
        return false
    }

    mutating func decodeNil() throws -> Bool {
        let index = try next(Never.self)
        guard decoder.isNull(index) else { return false }
        advance()
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try scalar(Bool.self) }
    mutating func decode(_ type: String.Type) throws -> String { try scalar(String.self) }
    mutating func decode(_ type: Double.Type) throws -> Double { try scalar(Double.self) }
    mutating func decode(_ type: Float.Type) throws -> Float { try scalar(Float.self) }
    mutating func decode(_ type: Int.Type) throws -> Int { try scalar(Int.self) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try scalar(Int8.self) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try scalar(Int16.self) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try scalar(Int32.self) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try scalar(Int64.self) }
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    mutating func decode(_ type: Int128.Type) throws -> Int128 { try integer(Int128.self) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try scalar(UInt.self) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try scalar(UInt8.self) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try scalar(UInt16.self) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try scalar(UInt32.self) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try scalar(UInt64.self) }
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    mutating func decode(_ type: UInt128.Type) throws -> UInt128 { try integer(UInt128.self) }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let index = try next(T.self)
        let value = try decoder.unwrap(index, as: type, base: base, element: currentIndex)
        advance()
        return value
    }

    mutating func decodeIfPresent(_ type: Bool.Type) throws -> Bool? {
        skipIfAbsent() ? nil : try scalar(Bool.self)
    }
    mutating func decodeIfPresent(_ type: String.Type) throws -> String? {
        skipIfAbsent() ? nil : try scalar(String.self)
    }
    mutating func decodeIfPresent(_ type: Double.Type) throws -> Double? {
        skipIfAbsent() ? nil : try scalar(Double.self)
    }
    mutating func decodeIfPresent(_ type: Float.Type) throws -> Float? {
        skipIfAbsent() ? nil : try scalar(Float.self)
    }
    mutating func decodeIfPresent(_ type: Int.Type) throws -> Int? {
        skipIfAbsent() ? nil : try scalar(Int.self)
    }
    mutating func decodeIfPresent(_ type: Int8.Type) throws -> Int8? {
        skipIfAbsent() ? nil : try scalar(Int8.self)
    }
    mutating func decodeIfPresent(_ type: Int16.Type) throws -> Int16? {
        skipIfAbsent() ? nil : try scalar(Int16.self)
    }
    mutating func decodeIfPresent(_ type: Int32.Type) throws -> Int32? {
        skipIfAbsent() ? nil : try scalar(Int32.self)
    }
    mutating func decodeIfPresent(_ type: Int64.Type) throws -> Int64? {
        skipIfAbsent() ? nil : try scalar(Int64.self)
    }
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    mutating func decodeIfPresent(_ type: Int128.Type) throws -> Int128? {
        skipIfAbsent() ? nil : try integer(Int128.self)
    }
    mutating func decodeIfPresent(_ type: UInt.Type) throws -> UInt? {
        skipIfAbsent() ? nil : try scalar(UInt.self)
    }
    mutating func decodeIfPresent(_ type: UInt8.Type) throws -> UInt8? {
        skipIfAbsent() ? nil : try scalar(UInt8.self)
    }
    mutating func decodeIfPresent(_ type: UInt16.Type) throws -> UInt16? {
        skipIfAbsent() ? nil : try scalar(UInt16.self)
    }
    mutating func decodeIfPresent(_ type: UInt32.Type) throws -> UInt32? {
        skipIfAbsent() ? nil : try scalar(UInt32.self)
    }
    mutating func decodeIfPresent(_ type: UInt64.Type) throws -> UInt64? {
        skipIfAbsent() ? nil : try scalar(UInt64.self)
    }
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    mutating func decodeIfPresent(_ type: UInt128.Type) throws -> UInt128? {
        skipIfAbsent() ? nil : try integer(UInt128.self)
    }

    mutating func decodeIfPresent<T: Decodable>(_ type: T.Type) throws -> T? {
        skipIfAbsent() ? nil : try decode(type)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        let index = try next(
            KeyedDecodingContainer<NestedKey>.self, "Cannot get nested keyed container -- unkeyed container is at end.")
        let path = decoder.components(base) + [.index(currentIndex)]
        let container = try decoder.keyedContainer(NestedKey.self, at: index, base: decoder.detach(path))
        advance()
        return KeyedDecodingContainer(container)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let index = try next(
            (any UnkeyedDecodingContainer).self, "Cannot get nested unkeyed container -- unkeyed container is at end.")
        let path = decoder.components(base) + [.index(currentIndex)]
        let container = try decoder.unkeyedContainer(at: index, base: decoder.detach(path))
        advance()
        return container
    }

    mutating func superDecoder() throws -> any Decoder {
        let index = try next((any Decoder).self, "Cannot get superDecoder() -- unkeyed container is at end.")
        let path = decoder.components(base) + [.index(currentIndex)]
        advance()
        return TapeDecoder(sharing: decoder, at: index, path: path)
    }
}

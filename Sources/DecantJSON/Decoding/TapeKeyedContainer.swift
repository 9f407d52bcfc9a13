#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The keyed container of an object on the tape: keys are matched against the document's bytes.
struct TapeKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: TapeDecoder
    /// The tape index of the object.
    let object: Int
    let base: PathBase
    /// The index of the converted keys in the decoder (``TapeDecoder/convertedKeys(_:)``), under a `.custom` key
    /// decoding strategy; else -1. (An index, not a reference, so that copying a container retains only its decoder:
    /// `KeyedDecodingContainer` copies it for every call.)
    let converted: Int

    init(decoder: TapeDecoder, object: Int, base: PathBase) {
        self.decoder = decoder
        self.object = object
        self.base = base
        if let converter = decoder.options.keyConverter {
            converted = decoder.keep(
                ConvertedKeys(
                    decoder: decoder, object: object, codingPath: decoder.codingPath(base), converter: converter))
        } else {
            converted = -1
        }
    }

    var codingPath: [any CodingKey] { decoder.codingPath(base) }

    /// The keys in document order (converted under the key decoding strategy) that `Key` can represent.
    var allKeys: [Key] {
        (converted >= 0 ? decoder.convertedKeys(converted).keys : decoder.keys(ofObject: object)).compactMap {
            Key(stringValue: $0)
        }
    }

    func contains(_ key: Key) -> Bool { valueIndex(key) != nil }

    @inline(__always)
    private func valueIndex(_ key: some CodingKey) -> Int? {
        if converted >= 0 { return decoder.convertedKeys(converted).valueIndex(key.stringValue) }
        return decoder.member(key.stringValue, inObject: object, depth: base.depth)
    }

    @inline(__always)
    private func require(_ key: Key) throws(DecodingError) -> Int {
        guard let index = valueIndex(key) else { throw keyNotFound(key) }
        return index
    }

    private func keyNotFound(_ key: Key) -> DecodingError {
        .keyNotFound(
            key,
            DecodingError.Context(
                codingPath: codingPath,
                debugDescription: "No value associated with key \(key) (\"\(key.stringValue)\")."
            ))
    }

    /// Reads a scalar (see ``TapeDecoder/readScalar(_:_:)``).
    @inline(__always)
    private func scalar<T>(_ key: Key, _ type: T.Type) throws -> T {
        let index = try require(key)
        do throws(TapeFailure) {
            return try decoder.readScalar(index, T.self)
        } catch {
            throw decoder.decodingError(error, codingPath: decoder.codingPath(base, appending: .key(key)))
        }
    }

    @inline(__always)
    private func scalarIfPresent<T>(_ key: Key, _ type: T.Type) throws -> T? {
        guard let index = valueIndex(key), !decoder.isNull(index) else { return nil }
        do throws(TapeFailure) {
            return try decoder.readScalar(index, T.self)
        } catch {
            throw decoder.decodingError(error, codingPath: decoder.codingPath(base, appending: .key(key)))
        }
    }

    @inline(__always)
    private func integer<T: FixedWidthInteger>(_ key: Key, _ type: T.Type) throws -> T {
        let index = try require(key)
        do throws(TapeFailure) {
            return try decoder.readInteger(index, T.self)
        } catch {
            throw decoder.decodingError(error, codingPath: decoder.codingPath(base, appending: .key(key)))
        }
    }

    @inline(__always)
    private func integerIfPresent<T: FixedWidthInteger>(_ key: Key, _ type: T.Type) throws -> T? {
        guard let index = valueIndex(key), !decoder.isNull(index) else { return nil }
        do throws(TapeFailure) {
            return try decoder.readInteger(index, T.self)
        } catch {
            throw decoder.decodingError(error, codingPath: decoder.codingPath(base, appending: .key(key)))
        }
    }

    func decodeNil(forKey key: Key) throws -> Bool { decoder.isNull(try require(key)) }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try scalar(key, Bool.self) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try scalar(key, String.self) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try scalar(key, Double.self) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try scalar(key, Float.self) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try scalar(key, Int.self) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try scalar(key, Int8.self) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try scalar(key, Int16.self) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try scalar(key, Int32.self) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try scalar(key, Int64.self) }
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    func decode(_ type: Int128.Type, forKey key: Key) throws -> Int128 { try integer(key, Int128.self) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try scalar(key, UInt.self) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try scalar(key, UInt8.self) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try scalar(key, UInt16.self) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try scalar(key, UInt32.self) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try scalar(key, UInt64.self) }
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    func decode(_ type: UInt128.Type, forKey key: Key) throws -> UInt128 { try integer(key, UInt128.self) }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try decoder.unwrap(try require(key), as: type, base: base, key: key)
    }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
        try scalarIfPresent(key, Bool.self)
    }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        try scalarIfPresent(key, String.self)
    }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        try scalarIfPresent(key, Double.self)
    }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? {
        try scalarIfPresent(key, Float.self)
    }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
        try scalarIfPresent(key, Int.self)
    }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? {
        try scalarIfPresent(key, Int8.self)
    }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? {
        try scalarIfPresent(key, Int16.self)
    }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? {
        try scalarIfPresent(key, Int32.self)
    }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
        try scalarIfPresent(key, Int64.self)
    }
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    func decodeIfPresent(_ type: Int128.Type, forKey key: Key) throws -> Int128? {
        try integerIfPresent(key, Int128.self)
    }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? {
        try scalarIfPresent(key, UInt.self)
    }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? {
        try scalarIfPresent(key, UInt8.self)
    }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? {
        try scalarIfPresent(key, UInt16.self)
    }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? {
        try scalarIfPresent(key, UInt32.self)
    }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? {
        try scalarIfPresent(key, UInt64.self)
    }
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    func decodeIfPresent(_ type: UInt128.Type, forKey key: Key) throws -> UInt128? {
        try integerIfPresent(key, UInt128.self)
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let index = valueIndex(key), !decoder.isNull(index) else { return nil }
        return try decoder.unwrap(index, as: type, base: base, key: key)
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        let index = try require(key)
        let path = decoder.components(base) + [.key(key)]
        return KeyedDecodingContainer(try decoder.keyedContainer(NestedKey.self, at: index, base: decoder.detach(path)))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        let index = try require(key)
        let path = decoder.components(base) + [.key(key)]
        return try decoder.unkeyedContainer(at: index, base: decoder.detach(path))
    }

    func superDecoder() throws -> any Decoder { decoder(for: JSONStringKey.super) }

    func superDecoder(forKey key: Key) throws -> any Decoder { decoder(for: key) }

    /// A decoder of the member `key`, or of `null` when there is none (as in `JSONDecoder`).
    private func decoder(for key: some CodingKey) -> TapeDecoder {
        let path = decoder.components(base) + [.key(key)]
        guard let index = valueIndex(key) else { return TapeDecoder.null(like: decoder, path: path) }
        return TapeDecoder(sharing: decoder, at: index, path: path)
    }
}

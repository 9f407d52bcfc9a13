#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The keyed container of a ``StreamEncoder``: writes members of the object its value opened.
struct StreamKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: StreamEncoder
    /// The serial of the object's frame (-1: the container could not be made; every write throws why).
    let serial: Int
    /// The length of the object's coding path.
    let pathDepth: Int

    var codingPath: [any CodingKey] { encoder.state.pointee.path[..<pathDepth].map(\.codingKey) }

    @inline(__always)
    private func begin(_ key: Key) throws {
        try encoder.beginMember(serial, key: encoder.keyText(key, pathDepth: pathDepth))
    }

    mutating func encodeNil(forKey key: Key) throws {
        try begin(key)
        encoder.writeNull()
    }

    mutating func encode(_ value: Bool, forKey key: Key) throws {
        try begin(key)
        encoder.writeBool(value)
    }

    mutating func encode(_ value: String, forKey key: Key) throws {
        try begin(key)
        encoder.writeString(value)
    }

    mutating func encode(_ value: Double, forKey key: Key) throws {
        let mark = encoder.mark()
        try begin(key)
        do {
            try encoder.writeDouble(value, key: .key(key))
        } catch {
            encoder.restore(mark)
            throw error
        }
    }

    mutating func encode(_ value: Float, forKey key: Key) throws {
        let mark = encoder.mark()
        try begin(key)
        do {
            try encoder.writeFloat(value, key: .key(key))
        } catch {
            encoder.restore(mark)
            throw error
        }
    }

    mutating func encode(_ value: Int, forKey key: Key) throws {
        try begin(key)
        encoder.writeInteger(value)
    }

    mutating func encode(_ value: Int8, forKey key: Key) throws {
        try begin(key)
        encoder.writeInteger(value)
    }

    mutating func encode(_ value: Int16, forKey key: Key) throws {
        try begin(key)
        encoder.writeInteger(value)
    }

    mutating func encode(_ value: Int32, forKey key: Key) throws {
        try begin(key)
        encoder.writeInteger(value)
    }

    mutating func encode(_ value: Int64, forKey key: Key) throws {
        try begin(key)
        encoder.writeInteger(value)
    }

    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    mutating func encode(_ value: Int128, forKey key: Key) throws {
        try begin(key)
        encoder.writeInteger(value)
    }

    mutating func encode(_ value: UInt, forKey key: Key) throws {
        try begin(key)
        encoder.writeInteger(value)
    }

    mutating func encode(_ value: UInt8, forKey key: Key) throws {
        try begin(key)
        encoder.writeInteger(value)
    }

    mutating func encode(_ value: UInt16, forKey key: Key) throws {
        try begin(key)
        encoder.writeInteger(value)
    }

    mutating func encode(_ value: UInt32, forKey key: Key) throws {
        try begin(key)
        encoder.writeInteger(value)
    }

    mutating func encode(_ value: UInt64, forKey key: Key) throws {
        try begin(key)
        encoder.writeInteger(value)
    }

    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    mutating func encode(_ value: UInt128, forKey key: Key) throws {
        try begin(key)
        encoder.writeInteger(value)
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        let mark = encoder.mark()
        try begin(key)
        let state = encoder.state
        state.pointee.path.append(.key(key))
        do {
            try encoder.encodeValue(value, depth: encoder.itemDepth)
        } catch {
            state.pointee.path.removeLast()
            encoder.restore(mark)
            throw error
        }
        state.pointee.path.removeLast()
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let child = makeChild(key)
        return child.container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        makeChild(key).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        makeChild(JSONStringKey.super, stringKey: "super")
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        makeChild(key)
    }

    /// A stream encoder for the value of the member `key`, written out of order with this container's.
    private func makeChild(_ key: some CodingKey, stringKey: String? = nil) -> StreamEncoder {
        do {
            try encoder.beginMember(
                serial, key: stringKey ?? encoder.keyText(key, pathDepth: pathDepth))
        } catch {
            encoder.deferError(error)
        }
        var path = Array(encoder.state.pointee.path[..<pathDepth])
        path.append(.key(key))
        return encoder.makeChild(path: path, depth: encoder.itemDepthOrZero)
    }
}

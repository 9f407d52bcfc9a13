#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The unkeyed container of a ``StreamEncoder``: writes elements of the array its value opened.
struct StreamUnkeyedContainer: UnkeyedEncodingContainer {
    let encoder: StreamEncoder
    /// The serial of the array's frame (-1: the container could not be made; every write throws why).
    let serial: Int
    /// The length of the array's coding path.
    let pathDepth: Int
    /// The number of elements written through this container.
    private(set) var count = 0

    init(encoder: StreamEncoder, serial: Int, pathDepth: Int) {
        self.encoder = encoder
        self.serial = serial
        self.pathDepth = pathDepth
        if serial >= 0, serial == encoder.state.pointee.topSerial {
            count = encoder.state.pointee.frames[encoder.state.pointee.frames.count - 1].count
        }
    }

    var codingPath: [any CodingKey] { encoder.state.pointee.path[..<pathDepth].map(\.codingKey) }

    @inline(__always)
    private mutating func begin() throws {
        count = try encoder.beginElement(serial) + 1
    }

    mutating func encodeNil() throws {
        try begin()
        encoder.writeNull()
    }

    mutating func encode(_ value: Bool) throws {
        try begin()
        encoder.writeBool(value)
    }

    mutating func encode(_ value: String) throws {
        try begin()
        encoder.writeString(value)
    }

    mutating func encode(_ value: Double) throws {
        let mark = encoder.mark()
        try begin()
        do {
            try encoder.writeDouble(value, key: .index(count - 1))
        } catch {
            encoder.restore(mark)
            count -= 1
            throw error
        }
    }

    mutating func encode(_ value: Float) throws {
        let mark = encoder.mark()
        try begin()
        do {
            try encoder.writeFloat(value, key: .index(count - 1))
        } catch {
            encoder.restore(mark)
            count -= 1
            throw error
        }
    }

    mutating func encode(_ value: Int) throws {
        try begin()
        encoder.writeInteger(value)
    }

    mutating func encode(_ value: Int8) throws {
        try begin()
        encoder.writeInteger(value)
    }

    mutating func encode(_ value: Int16) throws {
        try begin()
        encoder.writeInteger(value)
    }

    mutating func encode(_ value: Int32) throws {
        try begin()
        encoder.writeInteger(value)
    }

    mutating func encode(_ value: Int64) throws {
        try begin()
        encoder.writeInteger(value)
    }

    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    mutating func encode(_ value: Int128) throws {
        try begin()
        encoder.writeInteger(value)
    }

    mutating func encode(_ value: UInt) throws {
        try begin()
        encoder.writeInteger(value)
    }

    mutating func encode(_ value: UInt8) throws {
        try begin()
        encoder.writeInteger(value)
    }

    mutating func encode(_ value: UInt16) throws {
        try begin()
        encoder.writeInteger(value)
    }

    mutating func encode(_ value: UInt32) throws {
        try begin()
        encoder.writeInteger(value)
    }

    mutating func encode(_ value: UInt64) throws {
        try begin()
        encoder.writeInteger(value)
    }

    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    mutating func encode(_ value: UInt128) throws {
        try begin()
        encoder.writeInteger(value)
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        let mark = encoder.mark()
        try begin()
        let state = encoder.state
        state.pointee.path.append(.index(count - 1))
        do {
            try encoder.encodeValue(value, depth: encoder.itemDepth)
        } catch {
            state.pointee.path.removeLast()
            encoder.restore(mark)
            count -= 1
            throw error
        }
        state.pointee.path.removeLast()
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type
    ) -> KeyedEncodingContainer<NestedKey> {
        makeChild().container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        makeChild().unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        makeChild()
    }

    /// A stream encoder for the next element, written out of order with this container's.
    private mutating func makeChild() -> StreamEncoder {
        do {
            try begin()
        } catch {
            encoder.deferError(error)
            count += 1
        }
        var path = Array(encoder.state.pointee.path[..<pathDepth])
        path.append(.index(count - 1))
        return encoder.makeChild(path: path, depth: encoder.itemDepthOrZero)
    }
}

/// The single-value container of a ``StreamEncoder``: writes the one value of the innermost frame.
struct StreamSingleValueContainer: SingleValueEncodingContainer {
    let encoder: StreamEncoder
    /// The serial of the value's frame.
    let serial: Int

    var codingPath: [any CodingKey] { encoder.codingPath }

    mutating func encodeNil() throws {
        try encoder.beginScalar(serial)
        encoder.writeNull()
    }

    mutating func encode(_ value: Bool) throws {
        try encoder.beginScalar(serial)
        encoder.writeBool(value)
    }

    mutating func encode(_ value: String) throws {
        try encoder.beginScalar(serial)
        encoder.writeString(value)
    }

    mutating func encode(_ value: Double) throws {
        let mark = encoder.mark()
        try encoder.beginScalar(serial)
        do {
            try encoder.writeDouble(value)
        } catch {
            encoder.restore(mark)
            throw error
        }
    }

    mutating func encode(_ value: Float) throws {
        let mark = encoder.mark()
        try encoder.beginScalar(serial)
        do {
            try encoder.writeFloat(value)
        } catch {
            encoder.restore(mark)
            throw error
        }
    }

    mutating func encode(_ value: Int) throws {
        try encoder.beginScalar(serial)
        encoder.writeInteger(value)
    }

    mutating func encode(_ value: Int8) throws {
        try encoder.beginScalar(serial)
        encoder.writeInteger(value)
    }

    mutating func encode(_ value: Int16) throws {
        try encoder.beginScalar(serial)
        encoder.writeInteger(value)
    }

    mutating func encode(_ value: Int32) throws {
        try encoder.beginScalar(serial)
        encoder.writeInteger(value)
    }

    mutating func encode(_ value: Int64) throws {
        try encoder.beginScalar(serial)
        encoder.writeInteger(value)
    }

    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    mutating func encode(_ value: Int128) throws {
        try encoder.beginScalar(serial)
        encoder.writeInteger(value)
    }

    mutating func encode(_ value: UInt) throws {
        try encoder.beginScalar(serial)
        encoder.writeInteger(value)
    }

    mutating func encode(_ value: UInt8) throws {
        try encoder.beginScalar(serial)
        encoder.writeInteger(value)
    }

    mutating func encode(_ value: UInt16) throws {
        try encoder.beginScalar(serial)
        encoder.writeInteger(value)
    }

    mutating func encode(_ value: UInt32) throws {
        try encoder.beginScalar(serial)
        encoder.writeInteger(value)
    }

    mutating func encode(_ value: UInt64) throws {
        try encoder.beginScalar(serial)
        encoder.writeInteger(value)
    }

    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    mutating func encode(_ value: UInt128) throws {
        try encoder.beginScalar(serial)
        encoder.writeInteger(value)
    }

    /// Encodes `value` in place of this value: a new frame at the same position and depth.
    mutating func encode<T: Encodable>(_ value: T) throws {
        let mark = encoder.mark()
        try encoder.beginScalar(serial)
        do {
            try encoder.encodeValue(value, depth: encoder.topDepth)
        } catch {
            encoder.restore(mark)
            throw error
        }
    }
}

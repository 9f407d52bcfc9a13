import DecantCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension StreamEncoder {
    /// Encodes the top-level value and returns the text.
    func encodeRoot<T: Encodable>(_ value: T) throws -> [UInt8] {
        try push(depth: 0)
        if try writeSpecial(value) {
            do {
                try value.encode(to: self)
            } catch {
                noteFailure()
                throw error
            }
        }
        if let error = state.pointee.deferredError { throw error }
        if closeTop() {
            throw EncodingError.invalidValue(
                value,
                EncodingError.Context(
                    codingPath: [], debugDescription: "Top-level \(T.self) did not encode any values."))
        }
        if let error = state.pointee.deferredError { throw error }
        return state.pointee.output
    }

    /// Encodes `value` as the value at the current position (a member's or element's, after its key or separator),
    /// nested at `depth`.
    @inline(__always)
    func encodeValue<T: Encodable>(_ value: T, depth: Int) throws {
        // The commonest scalars first, without a frame.
        if T.self == String.self {
            writeString(unsafeBitCast(value, to: String.self))
        } else if T.self == Int.self {
            JSONWriter.writeInteger(Int64(unsafeBitCast(value, to: Int.self)), into: &state.pointee.output)
        } else if T.self == Bool.self {
            writeBool(unsafeBitCast(value, to: Bool.self))
        } else {
            try push(depth: depth)
            if try writeSpecial(value) {
                do {
                    try value.encode(to: self)
                } catch {
                    noteFailure()
                    throw error
                }
            }
            closeTopWritingEmpty()
        }
    }

    /// Writes the values `JSONEncoder` treats specially into the pending frame just pushed: numbers, dates, data,
    /// URLs, decimals, and `[String: Value]` under a key strategy. Returns `true` when `value` is none of them and its
    /// `encode(to:)` must run.
    private func writeSpecial<T: Encodable>(_ value: T) throws -> Bool {
        if T.self == String.self {
            writeString(unsafeBitCast(value, to: String.self))
        } else if T.self == Int.self {
            writeInteger(unsafeBitCast(value, to: Int.self))
        } else if T.self == Bool.self {
            writeBool(unsafeBitCast(value, to: Bool.self))
        } else if T.self == Double.self {
            try writeDouble(unsafeBitCast(value, to: Double.self))
        } else if T.self == Float.self {
            try writeFloat(unsafeBitCast(value, to: Float.self))
        } else if T.self == Int64.self {
            writeInteger(unsafeBitCast(value, to: Int64.self))
        } else if T.self == UInt64.self {
            writeInteger(unsafeBitCast(value, to: UInt64.self))
        } else if T.self == UInt.self {
            writeInteger(unsafeBitCast(value, to: UInt.self))
        } else if T.self == Int32.self {
            writeInteger(unsafeBitCast(value, to: Int32.self))
        } else if T.self == UInt32.self {
            writeInteger(unsafeBitCast(value, to: UInt32.self))
        } else if T.self == Int16.self {
            writeInteger(unsafeBitCast(value, to: Int16.self))
        } else if T.self == UInt16.self {
            writeInteger(unsafeBitCast(value, to: UInt16.self))
        } else if T.self == Int8.self {
            writeInteger(unsafeBitCast(value, to: Int8.self))
        } else if T.self == UInt8.self {
            writeInteger(unsafeBitCast(value, to: UInt8.self))
        } else if T.self == Date.self {
            return try writeDate(unsafeBitCast(value, to: Date.self))
        } else if T.self == Data.self {
            return try writeData(unsafeBitCast(value, to: Data.self))
        } else if T.self == URL.self {
            writeString(unsafeBitCast(value, to: URL.self).absoluteString)
        } else if T.self == Decimal.self {
            try writeDecimal(unsafeBitCast(value, to: Decimal.self))
        } else if options.keyMode != .useDefaultKeys, let dictionary = value as? any StringKeyedDictionary {
            try dictionary.encodeMembers(to: self)
            return false
        } else {
            return true
        }
        state.pointee.frames[state.pointee.frames.count - 1].kind = .scalar
        return false
    }

    /// Runs `body` (a strategy's closure) as the `encode(to:)` of the pending frame; when it encodes nothing, the
    /// value is `{}`, as in `JSONEncoder`.
    private func run(_ body: () throws -> Void) throws -> Bool {
        do {
            try body()
        } catch {
            noteFailure()
            throw error
        }
        let top = state.pointee.frames.count - 1
        if state.pointee.frames[top].kind == .pending {
            state.pointee.output.append(contentsOf: [UInt8(ascii: "{"), UInt8(ascii: "}")])
            state.pointee.frames[top].kind = .scalar
        }
        return false
    }

    private func writeDate(_ date: Date) throws -> Bool {
        switch options.dateStrategy {
        case .deferredToDate: return true
        case .secondsSince1970: try writeDouble(date.timeIntervalSince1970)
        case .millisecondsSince1970: try writeDouble(1000.0 * date.timeIntervalSince1970)
        case .iso8601: writeString(ISO8601Dates.format(date, fractionalSeconds: false))
        case .iso8601WithFractionalSeconds: writeString(ISO8601Dates.format(date, fractionalSeconds: true))
        case .custom(let closure): return try run { try closure(date, self) }
        }
        state.pointee.frames[state.pointee.frames.count - 1].kind = .scalar
        return false
    }

    private func writeData(_ data: Data) throws -> Bool {
        switch options.dataStrategy {
        case .deferredToData: return true
        case .base64: writeString(data.base64EncodedString())
        case .custom(let closure): return try run { try closure(data, self) }
        }
        state.pointee.frames[state.pointee.frames.count - 1].kind = .scalar
        return false
    }

    private func writeDecimal(_ decimal: Decimal) throws {
        guard !decimal.isNaN else {
            throw EncodingError.invalidValue(
                decimal,
                EncodingError.Context(
                    codingPath: codingPath, debugDescription: "Unable to encode Decimal.nan directly in JSON."))
        }
        state.pointee.output.append(contentsOf: decimal.description.utf8)
    }

    /// Records where an error that is not an `EncodingError` was thrown (the innermost place wins).
    func noteFailure() {
        if state.pointee.failurePath == nil { state.pointee.failurePath = state.pointee.path }
    }

    // MARK: - Scalars

    /// Writes `text` as a string literal (``JSONStringEscaping``).
    @inline(__always)
    func writeString(_ text: String) {
        state.pointee.output.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { JSONStringEscaping.appendEscaped(UnsafeRawBufferPointer($0), to: &state.pointee.output) }
        state.pointee.output.append(UInt8(ascii: "\""))
    }

    @inline(__always)
    func writeBool(_ value: Bool) {
        state.pointee.output.append(contentsOf: value ? "true".utf8 : "false".utf8)
    }

    func writeNull() {
        state.pointee.output.append(contentsOf: "null".utf8)
    }

    /// Writes a `Double` as `JSONEncoder` does (``JSONNumber/encoderText(of:)``), or its non-conforming string.
    func writeDouble(_ value: Double, key: CodingPathComponent? = nil) throws {
        guard value.isFinite else { return try writeNonConforming(value, isNaN: value.isNaN, key: key) }
        JSONNumber.appendEncoderText(of: value, to: &state.pointee.output)
    }

    /// Writes a `Float` as `JSONEncoder` does, or its non-conforming string.
    func writeFloat(_ value: Float, key: CodingPathComponent? = nil) throws {
        guard value.isFinite else { return try writeNonConforming(value, isNaN: value.isNaN, key: key) }
        JSONNumber.appendEncoderText(of: value, to: &state.pointee.output)
    }

    private func writeNonConforming<F: BinaryFloatingPoint & Encodable>(
        _ value: F, isNaN: Bool, key: CodingPathComponent?
    ) throws {
        guard let strings = options.nonConformingStrings else {
            var path = codingPath
            if let key { path.append(key.codingKey) }
            throw EncodingError.invalidValue(
                value,
                EncodingError.Context(
                    codingPath: path,
                    debugDescription: "Unable to encode \(F.self).\(isNaN ? "nan" : "infinity") directly in JSON."))
        }
        writeString(isNaN ? strings.nan : value > 0 ? strings.positiveInfinity : strings.negativeInfinity)
    }

    /// Writes the exact decimal text of any integer.
    func writeInteger<I: BinaryInteger>(_ value: I) {
        if let small = Int64(exactly: value) {
            JSONWriter.writeInteger(small, into: &state.pointee.output)
        } else if let large = UInt64(exactly: value) {
            JSONWriter.writeInteger(magnitude: large, negative: false, into: &state.pointee.output)
        } else {
            state.pointee.output.append(contentsOf: String(value).utf8)
        }
    }

    /// The text of `key` under the key strategy.
    @inline(__always)
    func keyText<Key: CodingKey>(_ key: Key, pathDepth: Int) -> String {
        switch options.keyMode {
        case .useDefaultKeys:
            return key.stringValue
        case .convertToSnakeCase:
            let raw = key.stringValue
            if let converted = state.pointee.snakeKeys[raw] { return converted }
            let converted = options.keyStrategy.convert(key, codingPath: [])
            state.pointee.snakeKeys[raw] = converted
            return converted
        case .custom:
            let path = state.pointee.path[..<pathDepth].map(\.codingKey)
            return options.keyStrategy.convert(key, codingPath: path)
        }
    }
}

/// `[String: Value]`, whose keys `JSONEncoder` writes as they are whatever the key strategy.
protocol StringKeyedDictionary {
    /// Writes the dictionary as an object into the encoder's pending frame.
    func encodeMembers(to encoder: StreamEncoder) throws
}

extension Dictionary: StringKeyedDictionary where Key == String, Value: Encodable {
    func encodeMembers(to encoder: StreamEncoder) throws {
        let serial = encoder.openTop(.object)
        let depth = encoder.itemDepth
        for (key, value) in self {
            try encoder.beginMember(serial, key: key)
            encoder.state.pointee.path.append(.key(JSONStringKey(key)))
            try encoder.encodeValue(value, depth: depth)
            encoder.state.pointee.path.removeLast()
        }
    }
}

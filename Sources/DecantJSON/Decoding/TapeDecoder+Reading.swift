#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Why a value could not be read, before the coding path is known; becomes a `DecodingError`.
struct TapeFailure: Error, @unchecked Sendable {
    enum Reason {
        /// The value has another JSON type.
        case typeMismatch
        /// The value is `null`.
        case valueNotFound
        /// The number is outside the type's range (or not an integer, for integer types).
        case numberDoesNotFit
    }

    let reason: Reason
    /// The type that was expected.
    let type: Any.Type
    /// The tape index of the value.
    let index: Int

    init(_ reason: Reason, _ type: Any.Type, _ index: Int) {
        self.reason = reason
        self.type = type
        self.index = index
    }
}

extension TapeDecoder {
    // MARK: - Scalars

    /// Reads a scalar of one of the types the containers have dedicated methods for (Int128 and UInt128 aside).
    /// Meant to be specialized: the type tests fold away.
    @inline(__always)
    func readScalar<T>(_ index: Int, _ type: T.Type) throws(TapeFailure) -> T {
        if T.self == String.self { return unsafeBitCast(try readString(index), to: T.self) }
        if T.self == Bool.self { return unsafeBitCast(try readBool(index), to: T.self) }
        if T.self == Double.self { return unsafeBitCast(try readDouble(index), to: T.self) }
        if T.self == Float.self { return unsafeBitCast(try readFloat(index), to: T.self) }
        if T.self == Int.self { return unsafeBitCast(try readInteger(index, Int.self), to: T.self) }
        if T.self == Int8.self { return unsafeBitCast(try readInteger(index, Int8.self), to: T.self) }
        if T.self == Int16.self { return unsafeBitCast(try readInteger(index, Int16.self), to: T.self) }
        if T.self == Int32.self { return unsafeBitCast(try readInteger(index, Int32.self), to: T.self) }
        if T.self == Int64.self { return unsafeBitCast(try readInteger(index, Int64.self), to: T.self) }
        if T.self == UInt.self { return unsafeBitCast(try readInteger(index, UInt.self), to: T.self) }
        if T.self == UInt8.self { return unsafeBitCast(try readInteger(index, UInt8.self), to: T.self) }
        if T.self == UInt16.self { return unsafeBitCast(try readInteger(index, UInt16.self), to: T.self) }
        if T.self == UInt32.self { return unsafeBitCast(try readInteger(index, UInt32.self), to: T.self) }
        return unsafeBitCast(try readInteger(index, UInt64.self), to: T.self)
    }

    @inline(__always)
    func readBool(_ index: Int) throws(TapeFailure) -> Bool {
        let entry = tape[index]
        if entry == Tape.true { return true }
        if entry == Tape.false { return false }
        throw failure(Bool.self, index)
    }

    @inline(__always)
    func readString(_ index: Int) throws(TapeFailure) -> String {
        guard kind(index) == Tape.stringKind else { throw failure(String.self, index) }
        return string(at: index)
    }

    /// An integer: exact for integers written without fraction or exponent, else as `JSONDecoder` converts them
    /// (`1.0` and `1e2` are accepted, `1.5` and out-of-range values are not).
    @inline(__always)
    func readInteger<T: FixedWidthInteger>(_ index: Int, _ type: T.Type) throws(TapeFailure) -> T {
        let entry = tape[index]
        if Tape.kind(entry) == Tape.integerKind {
            guard let value = T(exactly: Tape.integerValue(entry)) else {
                throw TapeFailure(.numberDoesNotFit, T.self, index)
            }
            return value
        }
        guard Tape.kind(entry) == Tape.numberKind else { throw failure(T.self, index) }
        return try integerFromText(index, T.self)
    }

    @inline(__always)
    func readDouble(_ index: Int) throws(TapeFailure) -> Double {
        let entry = tape[index]
        if Tape.kind(entry) == Tape.integerKind { return Double(Tape.integerValue(entry)) }
        return try doubleSlowPath(index)
    }

    func readFloat(_ index: Int) throws(TapeFailure) -> Float {
        let entry = tape[index]
        switch Tape.kind(entry) {
        case Tape.integerKind:
            return Float(Tape.integerValue(entry))
        case Tape.numberKind:
            let text = span(index)
            guard let double = JSONNumber.double(from: text) else {
                throw TapeFailure(.numberDoesNotFit, Float.self, index)
            }
            var value = Float(double)
            let magnitude = double.magnitude
            // Rounding to a double first may land exactly halfway between two floats, and denormal floats round at
            // another bit: let the standard library round the text itself then (strtof, as JSONDecoder does).
            if double.bitPattern & 0x1FFF_FFFF == 0x1000_0000 || magnitude < Double(Float.leastNormalMagnitude)
                || magnitude > Double(Float.greatestFiniteMagnitude)
            {
                value = Float(String(decoding: text, as: UTF8.self)) ?? value
            }
            guard value.isFinite, value != 0 || JSONNumber.isTrueZero(text) else {
                throw TapeFailure(.numberDoesNotFit, Float.self, index)
            }
            return value
        case Tape.stringKind:
            if let value = nonConformingFloat(index) { return Float(value) }
            throw TapeFailure(.typeMismatch, Float.self, index)
        default:
            throw failure(Float.self, index)
        }
    }

    func readDecimal(_ index: Int) throws(TapeFailure) -> Decimal {
        let entry = tape[index]
        switch Tape.kind(entry) {
        case Tape.integerKind:
            return Decimal(Tape.integerValue(entry))
        case Tape.numberKind:
            guard let value = Decimal(string: string(at: index)) else {
                throw TapeFailure(.numberDoesNotFit, Decimal.self, index)
            }
            return value
        default:
            throw failure(Decimal.self, index)
        }
    }

    /// `valueNotFound` for `null`, `typeMismatch` for anything else.
    @inline(__always)
    func failure(_ type: Any.Type, _ index: Int) -> TapeFailure {
        TapeFailure(isNull(index) ? .valueNotFound : .typeMismatch, type, index)
    }

    private func doubleSlowPath(_ index: Int) throws(TapeFailure) -> Double {
        switch kind(index) {
        case Tape.numberKind:
            let text = span(index)
            // Like JSONDecoder, a value beyond Double's range, or one that rounds to zero, is an error.
            guard let value = JSONNumber.double(from: text), value != 0 || JSONNumber.isTrueZero(text) else {
                throw TapeFailure(.numberDoesNotFit, Double.self, index)
            }
            return value
        case Tape.stringKind:
            if let value = nonConformingFloat(index) { return value }
            throw TapeFailure(.typeMismatch, Double.self, index)
        default:
            throw failure(Double.self, index)
        }
    }

    /// Infinity or NaN when the string at `index` is one of the strings of
    /// `NonConformingFloatDecodingStrategy.convertFromString`.
    private func nonConformingFloat(_ index: Int) -> Double? {
        guard let strings = options.nonConformingStrings else { return nil }
        let text = span(index)
        if strings.positiveInfinity.withUnsafeBufferPointer({ JSONBytes.equal($0, text) }) { return .infinity }
        if strings.negativeInfinity.withUnsafeBufferPointer({ JSONBytes.equal($0, text) }) { return -.infinity }
        if strings.nan.withUnsafeBufferPointer({ JSONBytes.equal($0, text) }) { return .nan }
        return nil
    }

    /// An integer from number text, converted as `JSONDecoder` does: the exact integer when the text is one; else
    /// through the nearest `Double`, which must be an integer in range (so `1.0`, `1e2` and `1.0000000000000001`
    /// give 1 and 100 and 1); beyond 2^53, where doubles are sparse, through `Decimal`.
    private func integerFromText<T: FixedWidthInteger>(_ index: Int, _ type: T.Type) throws(TapeFailure) -> T {
        let text = span(index)
        let isPlainInteger = !text.contains { $0 == UInt8(ascii: ".") || $0 | 0x20 == UInt8(ascii: "e") }
        if isPlainInteger, let value = JSONNumber.integer(from: text, as: T.self) { return value }
        guard let double = JSONNumber.double(from: text), let value = T(exactly: double) else {
            throw TapeFailure(.numberDoesNotFit, T.self, index)
        }
        if double.magnitude < 0x1p53 { return value }
        guard let exact = T(truncatingDecimalText: text) else {
            throw TapeFailure(.numberDoesNotFit, T.self, index)
        }
        return exact
    }

    // MARK: - Errors

    /// The `DecodingError` of `failure` at `path`, worded as `JSONDecoder` words it.
    func decodingError(_ failure: TapeFailure, path: [CodingPathComponent]) -> DecodingError {
        decodingError(failure, codingPath: path.map(\.codingKey))
    }

    func decodingError(_ failure: TapeFailure, codingPath: [any CodingKey]) -> DecodingError {
        switch failure.reason {
        case .typeMismatch:
            return .typeMismatch(
                failure.type,
                DecodingError.Context(
                    codingPath: codingPath,
                    debugDescription: "Expected to decode \(failure.type) but found \(kindDescription(failure.index)) "
                        + "instead."))
        case .valueNotFound:
            return .valueNotFound(
                failure.type,
                DecodingError.Context(
                    codingPath: codingPath,
                    debugDescription: "Cannot get value of type \(failure.type) -- found null value instead"))
        case .numberDoesNotFit:
            return .dataCorrupted(
                DecodingError.Context(
                    codingPath: codingPath,
                    debugDescription: "Parsed JSON number <\(numberText(failure.index))> does not fit in "
                        + "\(failure.type)."))
        }
    }

    /// "a string", "an array", ...: the JSON type of the value at `index`.
    func kindDescription(_ index: Int) -> String {
        switch kind(index) {
        case Tape.nullKind: "null"
        case Tape.trueKind, Tape.falseKind: "a boolean"
        case Tape.integerKind, Tape.numberKind: "a number"
        case Tape.stringKind: "a string"
        case Tape.arrayKind: "an array"
        default: "an object"
        }
    }

    /// The text of the number at `index`.
    func numberText(_ index: Int) -> String {
        let entry = tape[index]
        if Tape.kind(entry) == Tape.integerKind { return String(Tape.integerValue(entry)) }
        return string(at: index)
    }
}

extension JSONNumber {
    /// Whether number text is zero: no digit 1-9 before the exponent.
    static func isTrueZero(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        for byte in text {
            if byte | 0x20 == UInt8(ascii: "e") { return true }
            if byte >= UInt8(ascii: "1") && byte <= UInt8(ascii: "9") { return false }
        }
        return true
    }

    /// The value of integer text (an optional `-` and digits), when it fits in `T`.
    static func integer<T: FixedWidthInteger>(from text: UnsafeBufferPointer<UInt8>, as type: T.Type) -> T? {
        var index = 0
        let negative = text.first == UInt8(ascii: "-")
        if negative {
            guard T.isSigned else { return text.count == 2 && text[1] == UInt8(ascii: "0") ? 0 : nil }
            index = 1
        }
        var value: T = 0
        while index < text.count {
            let digit = T(text[index] &- 0x30)
            let (times, overflow) = value.multipliedReportingOverflow(by: 10)
            let (next, carry) =
                negative ? times.subtractingReportingOverflow(digit) : times.addingReportingOverflow(digit)
            if overflow || carry { return nil }
            value = next
            index += 1
        }
        return value
    }
}

extension FixedWidthInteger {
    /// The integer part of valid number text as `JSONDecoder` computes it through `Decimal`: `nil` when the
    /// significant digits (without trailing zeros) do not fit in 64 bits or the result is out of range.
    init?(truncatingDecimalText text: UnsafeBufferPointer<UInt8>) {
        let parts = DecimalParts(text)
        guard parts.digits.count <= 20 else { return nil }
        var magnitude: UInt64 = 0
        for digit in parts.digits {
            let (times, overflow) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, carry) = times.addingReportingOverflow(UInt64(digit - 0x30))
            if overflow || carry { return nil }
            magnitude = sum
        }
        if parts.exponent < 0 {
            for _ in 0 ..< -parts.exponent {
                magnitude /= 10
                if magnitude == 0 { break }
            }
        } else {
            for _ in 0..<parts.exponent {
                let (times, overflow) = magnitude.multipliedReportingOverflow(by: 10)
                if overflow { return nil }
                magnitude = times
            }
        }
        guard let value = Self(exactly: magnitude) else { return nil }
        if parts.negative {
            guard Self.isSigned else { return nil }
            self = 0 - value
        } else {
            self = value
        }
    }
}

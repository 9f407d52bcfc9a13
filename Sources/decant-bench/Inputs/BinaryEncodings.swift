import Decant
import Foundation

/// CBOR (RFC 8949) and MessagePack encoders of a JSON tree, written for the bench: they turn a JSON file's data into
/// the binary forms the plugin rows decode. Integers take the shortest head, other numbers a float64, maps and arrays
/// definite lengths, keys in document order.
enum BinaryEncodings {
    /// `value` as one CBOR data item.
    static func cbor(_ value: JSONValue) -> Data {
        var bytes: [UInt8] = []
        appendCBOR(value, to: &bytes)
        return Data(bytes)
    }

    /// `value` as one MessagePack object.
    static func messagePack(_ value: JSONValue) -> Data {
        var bytes: [UInt8] = []
        appendMessagePack(value, to: &bytes)
        return Data(bytes)
    }

    /// The number of values (scalars and containers) in a JSON tree, to check that both forms hold the same data.
    static func valueCount(_ value: JSONValue) -> Int {
        switch value.kind {
        case .array: 1 + value.elements.reduce(0) { $0 + valueCount($1) }
        case .object: 1 + value.members.reduce(0) { $0 + valueCount($1.value) }
        default: 1
        }
    }

    private static func appendCBOR(_ value: JSONValue, to bytes: inout [UInt8]) {
        switch value.kind {
        case .null: bytes.append(0xF6)
        case .bool: bytes.append(value.boolValue == true ? 0xF5 : 0xF4)
        case .number:
            if let integer = value.intValue {
                if integer >= 0 {
                    appendCBORHead(major: 0, UInt64(integer), to: &bytes)
                } else {
                    appendCBORHead(major: 1, UInt64(-1 - integer), to: &bytes)
                }
            } else {
                bytes.append(0xFB)
                appendBigEndian((value.doubleValue ?? 0).bitPattern, to: &bytes)
            }
        case .string:
            let utf8 = Array((value.stringValue ?? "").utf8)
            appendCBORHead(major: 3, UInt64(utf8.count), to: &bytes)
            bytes.append(contentsOf: utf8)
        case .array:
            appendCBORHead(major: 4, UInt64(value.count), to: &bytes)
            for element in value.elements { appendCBOR(element, to: &bytes) }
        case .object:
            appendCBORHead(major: 5, UInt64(value.count), to: &bytes)
            for member in value.members {
                let key = Array(member.key.utf8)
                appendCBORHead(major: 3, UInt64(key.count), to: &bytes)
                bytes.append(contentsOf: key)
                appendCBOR(member.value, to: &bytes)
            }
        }
    }

    private static func appendCBORHead(major: UInt8, _ argument: UInt64, to bytes: inout [UInt8]) {
        let type = major << 5
        switch argument {
        case 0..<24: bytes.append(type | UInt8(argument))
        case 24...0xFF: bytes.append(contentsOf: [type | 24, UInt8(argument)])
        case 0x100...0xFFFF:
            bytes.append(type | 25)
            appendBigEndian(UInt16(argument), to: &bytes)
        case 0x1_0000...0xFFFF_FFFF:
            bytes.append(type | 26)
            appendBigEndian(UInt32(argument), to: &bytes)
        default:
            bytes.append(type | 27)
            appendBigEndian(argument, to: &bytes)
        }
    }

    private static func appendMessagePack(_ value: JSONValue, to bytes: inout [UInt8]) {
        switch value.kind {
        case .null: bytes.append(0xC0)
        case .bool: bytes.append(value.boolValue == true ? 0xC3 : 0xC2)
        case .number:
            if let integer = value.intValue {
                appendMessagePackInteger(Int64(integer), to: &bytes)
            } else {
                bytes.append(0xCB)
                appendBigEndian((value.doubleValue ?? 0).bitPattern, to: &bytes)
            }
        case .string: appendMessagePackString(value.stringValue ?? "", to: &bytes)
        case .array:
            appendMessagePackLength(value.count, fix: 0x90, sixteen: 0xDC, to: &bytes)
            for element in value.elements { appendMessagePack(element, to: &bytes) }
        case .object:
            appendMessagePackLength(value.count, fix: 0x80, sixteen: 0xDE, to: &bytes)
            for member in value.members {
                appendMessagePackString(member.key, to: &bytes)
                appendMessagePack(member.value, to: &bytes)
            }
        }
    }

    private static func appendMessagePackInteger(_ integer: Int64, to bytes: inout [UInt8]) {
        switch integer {
        case 0...0x7F: bytes.append(UInt8(integer))
        case -32..<0: bytes.append(UInt8(bitPattern: Int8(integer)))
        case 0x80...0xFF: bytes.append(contentsOf: [0xCC, UInt8(integer)])
        case 0x100...0xFFFF:
            bytes.append(0xCD)
            appendBigEndian(UInt16(integer), to: &bytes)
        case 0x1_0000...0xFFFF_FFFF:
            bytes.append(0xCE)
            appendBigEndian(UInt32(integer), to: &bytes)
        case 0x1_0000_0000...:
            bytes.append(0xCF)
            appendBigEndian(UInt64(integer), to: &bytes)
        case -128 ..< -32: bytes.append(contentsOf: [0xD0, UInt8(bitPattern: Int8(integer))])
        case -32_768 ..< -128:
            bytes.append(0xD1)
            appendBigEndian(UInt16(bitPattern: Int16(integer)), to: &bytes)
        case -2_147_483_648 ..< -32_768:
            bytes.append(0xD2)
            appendBigEndian(UInt32(bitPattern: Int32(integer)), to: &bytes)
        default:
            bytes.append(0xD3)
            appendBigEndian(UInt64(bitPattern: integer), to: &bytes)
        }
    }

    private static func appendMessagePackString(_ string: String, to bytes: inout [UInt8]) {
        let utf8 = Array(string.utf8)
        switch utf8.count {
        case 0..<32: bytes.append(0xA0 | UInt8(utf8.count))
        case 32...0xFF: bytes.append(contentsOf: [0xD9, UInt8(utf8.count)])
        case 0x100...0xFFFF:
            bytes.append(0xDA)
            appendBigEndian(UInt16(utf8.count), to: &bytes)
        default:
            bytes.append(0xDB)
            appendBigEndian(UInt32(utf8.count), to: &bytes)
        }
        bytes.append(contentsOf: utf8)
    }

    private static func appendMessagePackLength(_ count: Int, fix: UInt8, sixteen: UInt8, to bytes: inout [UInt8]) {
        switch count {
        case 0..<16: bytes.append(fix | UInt8(count))
        case 16...0xFFFF:
            bytes.append(sixteen)
            appendBigEndian(UInt16(count), to: &bytes)
        default:
            bytes.append(sixteen + 1)
            appendBigEndian(UInt32(count), to: &bytes)
        }
    }

    private static func appendBigEndian<T: FixedWidthInteger>(_ value: T, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.bigEndian) { bytes.append(contentsOf: $0) }
    }
}

import DecantCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Writes binary property lists (`bplist00`) as ``PropertyListWriter`` describes: `plistlib`'s object order,
/// sharing and sizes, iteratively.
struct BinaryPropertyListWriter {
    /// An object of the object table.
    private enum Object {
        case scalar(PropertyListValue)
        /// An array whose element references are `references[start..<start + count]`.
        case array(start: Int, count: Int)
        /// A dictionary whose key references are `references[start..<start + count]` and value references the
        /// `count` after them.
        case dictionary(start: Int, count: Int)
    }

    /// A value that is written once however often it occurs: equal strings, integers, reals, Booleans, dates and
    /// data, as `plistlib` shares them (strings by their scalars, not by `String`'s canonical equivalence; reals
    /// and dates by their bits).
    private enum SharedKey: Hashable {
        case string(ScalarText)
        case integer(PropertyListInteger)
        case real(UInt64)
        case bool(Bool)
        case date(UInt64)
        case data(Data)

        init?(_ value: PropertyListValue) {
            switch value {
            case .string(let string): self = .string(ScalarText(string))
            case .integer(let integer): self = .integer(integer)
            case .real(let real): self = .real(real.bitPattern)
            case .bool(let bool): self = .bool(bool)
            case .date(let date): self = .date(date.timeIntervalSinceReferenceDate.bitPattern)
            case .data(let data): self = .data(data)
            case .array, .dictionary, .uid: return nil
            }
        }
    }

    /// A string compared and hashed by its UTF-8 bytes.
    private struct ScalarText: Hashable {
        let text: String
        init(_ text: String) { self.text = text }

        static func == (lhs: ScalarText, rhs: ScalarText) -> Bool { lhs.text.utf8.elementsEqual(rhs.text.utf8) }

        func hash(into hasher: inout Hasher) {
            let hashed: Void? = text.utf8.withContiguousStorageIfAvailable {
                hasher.combine(bytes: UnsafeRawBufferPointer($0))
            }
            if hashed == nil {
                for byte in text.utf8 { hasher.combine(byte) }
            }
            hasher.combine(0xFF as UInt8)
        }
    }

    private var objects: [Object] = []
    private var references: [Int] = []
    private var shared: [SharedKey: Int] = [:]
    private var output: [UInt8] = []

    /// The binary property list of `value`.
    static func write(
        _ value: PropertyListValue, options: PropertyListWritingOptions
    ) throws(SerializationError) -> [UInt8] {
        var writer = BinaryPropertyListWriter()
        guard writer.flatten(value, options: options) else {
            throw PropertyListWriting.tooDeep(options.maxDepth, in: value)
        }
        writer.writeObjects()
        return writer.output
    }

    /// Numbers the objects as `plistlib` does (a container before its contents, a dictionary's keys before its
    /// values, each element's whole subtree before the next) and fills in the references; `false` when the value is
    /// nested deeper than the limit.
    private mutating func flatten(_ root: PropertyListValue, options: PropertyListWritingOptions) -> Bool {
        // Each task is a value to number, the reference slot to fill with its number (-1 for the root) and the
        // number of containers around it.
        var tasks: [(value: PropertyListValue, slot: Int, depth: Int)] = [(root, -1, 0)]
        while let (value, slot, depth) = tasks.popLast() {
            let number: Int
            if let key = SharedKey(value) {
                if let existing = shared[key] {
                    number = existing
                } else {
                    number = objects.count
                    shared[key] = number
                    objects.append(.scalar(value))
                }
            } else {
                number = objects.count
                switch value {
                case .array(let array):
                    guard depth < options.maxDepth else { return false }
                    let start = references.count
                    references.append(contentsOf: repeatElement(0, count: array.count))
                    objects.append(.array(start: start, count: array.count))
                    for index in array.indices.reversed() {
                        tasks.append((array[index], start + index, depth + 1))
                    }
                case .dictionary(let dictionary):
                    guard depth < options.maxDepth else { return false }
                    let start = references.count
                    let count = dictionary.count
                    references.append(contentsOf: repeatElement(0, count: 2 * count))
                    objects.append(.dictionary(start: start, count: count))
                    let order = PropertyListWriting.order(dictionary, sorted: options.sortedKeys)
                    for position in order.indices.reversed() {
                        tasks.append((dictionary.values[order[position]], start + count + position, depth + 1))
                    }
                    for position in order.indices.reversed() {
                        tasks.append((.string(dictionary.keys[order[position]]), start + position, depth + 1))
                    }
                default:
                    objects.append(.scalar(value))
                }
            }
            if slot >= 0 { references[slot] = number }
        }
        return true
    }

    /// The smallest of 1, 2, 4 and 8 bytes that holds numbers below `count` (`plistlib`'s `_count_to_size`).
    private static func size(for count: Int) -> Int {
        count < 1 << 8 ? 1 : count < 1 << 16 ? 2 : count < 1 << 32 ? 4 : 8
    }

    private mutating func writeObjects() {
        output.reserveCapacity(objects.count * 8 + 64)
        output += Array("bplist00".utf8)
        let referenceSize = Self.size(for: objects.count)
        var offsets: [Int] = []
        offsets.reserveCapacity(objects.count)
        for object in objects {
            offsets.append(output.count)
            switch object {
            case .scalar(let value):
                writeScalar(value)
            case .array(let start, let count):
                writeMarker(0xA0, count: count)
                for index in start..<start + count { append(references[index], size: referenceSize) }
            case .dictionary(let start, let count):
                writeMarker(0xD0, count: count)
                for index in start..<start + 2 * count { append(references[index], size: referenceSize) }
            }
        }
        let tableOffset = output.count
        let offsetSize = Self.size(for: tableOffset)
        for offset in offsets { append(offset, size: offsetSize) }
        output += [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(referenceSize)]
        append(objects.count, size: 8)
        append(0, size: 8)
        append(tableOffset, size: 8)
    }

    private mutating func writeScalar(_ value: PropertyListValue) {
        switch value {
        case .bool(let bool):
            output.append(bool ? 0x09 : 0x08)
        case .integer(let integer):
            writeInteger(integer)
        case .real(let real):
            output.append(0x23)
            appendBigEndian(real.bitPattern)
        case .date(let date):
            output.append(0x33)
            appendBigEndian(date.timeIntervalSinceReferenceDate.bitPattern)
        case .data(let data):
            writeMarker(0x40, count: data.count)
            output.append(contentsOf: data)
        case .string(let string):
            writeString(string)
        case .uid(let uid):
            if uid < 1 << 8 {
                output += [0x80, UInt8(uid)]
            } else if uid < 1 << 16 {
                output.append(0x81)
                append(Int(uid), size: 2)
            } else if uid < 1 << 32 {
                output.append(0x83)
                append(Int(uid), size: 4)
            } else {
                output.append(0x87)
                appendBigEndian(uid)
            }
        case .array, .dictionary:
            break  // never a scalar
        }
    }

    /// 1, 2, 4 or 8 bytes for a non-negative integer below 2^63, 8 for a negative one from -2^63, else 16.
    private mutating func writeInteger(_ integer: PropertyListInteger) {
        if let small = integer.int64Value {
            if small < 0 {
                output.append(0x13)
                appendBigEndian(UInt64(bitPattern: small))
            } else if small < 1 << 8 {
                output += [0x10, UInt8(small)]
            } else if small < 1 << 16 {
                output.append(0x11)
                append(Int(small), size: 2)
            } else if small < 1 << 32 {
                output.append(0x12)
                append(Int(small), size: 4)
            } else {
                output.append(0x13)
                appendBigEndian(UInt64(small))
            }
        } else {
            output.append(0x14)
            appendBigEndian(UInt64(bitPattern: integer.high))
            appendBigEndian(integer.low)
        }
    }

    /// ASCII text as it is, anything else as UTF-16BE code units.
    private mutating func writeString(_ string: String) {
        let utf8 = string.utf8
        if utf8.allSatisfy({ $0 < 0x80 }) {
            writeMarker(0x50, count: utf8.count)
            output.append(contentsOf: utf8)
            return
        }
        let units = string.utf16
        writeMarker(0x60, count: units.count)
        for unit in units {
            output.append(UInt8(unit >> 8))
            output.append(UInt8(unit & 0xFF))
        }
    }

    /// A marker with a count: in its low nibble below 15, else `0xF` and an integer object.
    private mutating func writeMarker(_ marker: UInt8, count: Int) {
        if count < 15 {
            output.append(marker | UInt8(count))
            return
        }
        output.append(marker | 0x0F)
        let size = Self.size(for: count)
        output.append(0x10 | UInt8(size.trailingZeroBitCount))
        append(count, size: size)
    }

    private mutating func append(_ value: Int, size: Int) {
        var shift = (size - 1) * 8
        while shift >= 0 {
            output.append(UInt8(truncatingIfNeeded: value >> shift))
            shift -= 8
        }
    }

    private mutating func appendBigEndian(_ value: UInt64) {
        append(Int(bitPattern: UInt(value)), size: 8)
    }
}

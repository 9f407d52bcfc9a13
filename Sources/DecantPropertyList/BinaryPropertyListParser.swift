import DecantCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Reads `bplist00` documents without recursion: every offset and reference is range-checked, reference cycles are
/// rejected, and shared references count once per reference against `maxObjects`.
struct BinaryPropertyListParser {
    let data: [UInt8]
    let options: PropertyListParsingOptions
    private var offsets: [Int] = []
    private var tableStart = 0
    private var referenceSize = 1

    init(data: [UInt8], options: PropertyListParsingOptions) {
        self.data = data
        self.options = options
    }

    private func invalid(_ message: String, at offset: Int?) -> SerializationError {
        PropertyListErrors.make(
            .invalidBody,
            "The binary property list is invalid: \(message)"
                + (offset.map { " (at byte \($0))" } ?? "") + ". Send a complete, well-formed bplist00 document.",
            offset: offset)
    }

    /// Reads a big-endian unsigned integer of `size` bytes (at most 8) at `offset`, within `limit`.
    private func readUnsigned(at offset: Int, size: Int, limit: Int) throws(SerializationError) -> UInt64 {
        guard size >= 1, size <= 8, offset >= 0, offset <= limit - size else {
            throw invalid("a \(size)-byte field runs past the end of its area", at: offset)
        }
        var value: UInt64 = 0
        for index in offset..<offset + size { value = value << 8 | UInt64(data[index]) }
        return value
    }

    mutating func parse() throws(SerializationError) -> PropertyListValue {
        guard data.count >= 8, data.starts(with: Array("bplist".utf8)) else {
            throw invalid("it does not start with the magic 'bplist00'", at: 0)
        }
        guard data[6] == UInt8(ascii: "0"), data[7] == UInt8(ascii: "0") else {
            throw PropertyListErrors.make(
                .unsupportedFeature,
                "The binary property list has version '\(String(decoding: data[6..<8], as: UTF8.self))'; only "
                    + "version 00 is supported. Write the property list as bplist00 or XML.",
                offset: 6)
        }
        guard data.count >= 8 + 32 + 1 else { throw invalid("it is too short to hold a trailer and one object", at: 0) }
        let trailer = data.count - 32
        let offsetSize = Int(data[trailer + 6])
        referenceSize = Int(data[trailer + 7])
        let objectCount = try readUnsigned(at: trailer + 8, size: 8, limit: data.count)
        let topObject = try readUnsigned(at: trailer + 16, size: 8, limit: data.count)
        let tableOffset = try readUnsigned(at: trailer + 24, size: 8, limit: data.count)
        guard (1...8).contains(offsetSize) else {
            throw invalid("the offset size \(offsetSize) is not 1 to 8", at: trailer + 6)
        }
        guard (1...8).contains(referenceSize) else {
            throw invalid("the object reference size \(referenceSize) is not 1 to 8", at: trailer + 7)
        }
        guard objectCount >= 1, objectCount <= UInt64(trailer) else {
            throw invalid("the object count \(objectCount) does not fit the document", at: trailer + 8)
        }
        guard topObject < objectCount else {
            throw invalid("the top object \(topObject) is not below the object count \(objectCount)", at: trailer + 16)
        }
        let (tableBytes, overflow) = objectCount.multipliedReportingOverflow(by: UInt64(offsetSize))
        guard tableOffset >= 9, tableOffset <= UInt64(trailer), !overflow, tableBytes <= UInt64(trailer) - tableOffset
        else {
            throw invalid("the offset table (at \(tableOffset), \(objectCount) entries) does not fit", at: trailer + 24)
        }
        tableStart = Int(tableOffset)
        offsets.reserveCapacity(Int(objectCount))
        for index in 0..<Int(objectCount) {
            let entry = tableStart + index * offsetSize
            let offset = try readUnsigned(at: entry, size: offsetSize, limit: trailer)
            guard offset >= 8, offset < tableOffset else {
                throw invalid("object \(index) has the offset \(offset), outside the object area", at: entry)
            }
            offsets.append(Int(offset))
        }
        return try materialize(root: Int(topObject))
    }

    private enum Container {
        case array
        case dictionary(keyCount: Int)

        var isDictionary: Bool {
            if case .dictionary = self { return true }
            return false
        }
    }

    private struct Frame {
        let object: Int
        let offset: Int
        let kind: Container
        let references: [Int]
        var next = 0
        var children: [PropertyListValue] = []
        var size = 1
    }

    private enum Parsed {
        case leaf(PropertyListValue)
        case container(Container, references: [Int])
    }

    /// Builds the value of `root` with an explicit stack. Finished objects are cached with their logical size (the
    /// number of values they expand to), so a shared object is parsed once but counted at every reference.
    private func materialize(root: Int) throws(SerializationError) -> PropertyListValue {
        var cache: [Int: (value: PropertyListValue, size: Int)] = [:]
        var inProgress = Set<Int>()
        var stack: [Frame] = []
        var pending: (value: PropertyListValue, size: Int)? = nil

        func open(_ object: Int) throws(SerializationError) -> (value: PropertyListValue, size: Int)? {
            if let cached = cache[object] { return cached }
            if inProgress.contains(object) {
                throw invalid("object \(object) contains itself (a reference cycle)", at: offsets[object])
            }
            switch try parseObject(object) {
            case .leaf(let value):
                return (value, 1)
            case .container(let kind, let references):
                guard stack.count < options.maxDepth else {
                    throw PropertyListErrors.tooDeep(options.maxDepth, offset: offsets[object])
                }
                inProgress.insert(object)
                var frame = Frame(object: object, offset: offsets[object], kind: kind, references: references)
                frame.children.reserveCapacity(min(references.count, 4096))
                stack.append(frame)
                return nil
            }
        }

        pending = try open(root)
        while !stack.isEmpty {
            if let (value, size) = pending {
                pending = nil
                let index = stack.count - 1
                stack[index].children.append(value)
                let (total, overflow) = stack[index].size.addingReportingOverflow(size)
                guard !overflow, total <= options.maxObjects else {
                    throw PropertyListErrors.tooManyObjects(options.maxObjects, offset: stack[index].offset)
                }
                stack[index].size = total
            }
            let top = stack.count - 1
            if stack[top].next < stack[top].references.count {
                let child = stack[top].references[stack[top].next]
                stack[top].next += 1
                pending = try open(child)
                continue
            }
            let frame = stack.removeLast()
            inProgress.remove(frame.object)
            let value: PropertyListValue
            switch frame.kind {
            case .array:
                value = .array(frame.children)
            case .dictionary(let keyCount):
                var entries: [(key: String, value: PropertyListValue)] = []
                entries.reserveCapacity(keyCount)
                for index in 0..<keyCount {
                    guard case .string(let key) = frame.children[index] else {
                        throw invalid(
                            "a key of the dictionary (object \(frame.object)) is "
                                + "\(frame.children[index].kindDescription), not a string", at: frame.offset)
                    }
                    entries.append((key, frame.children[keyCount + index]))
                }
                value = .dictionary(PropertyListDictionary(entries))
            }
            let size = frame.size - (frame.kind.isDictionary ? frame.references.count / 2 : 0)
            cache[frame.object] = (value, size)
            pending = (value, size)
        }
        guard let (value, size) = pending else { throw invalid("the top object is missing", at: nil) }
        guard size <= options.maxObjects else {
            throw PropertyListErrors.tooManyObjects(options.maxObjects, offset: nil)
        }
        return value
    }

    /// Reads a length: the low nibble of the marker, or the integer object that follows when the nibble is 0xF.
    private func length(marker: UInt8, at offset: Int, cursor: inout Int) throws(SerializationError) -> Int {
        let nibble = Int(marker & 0x0F)
        if nibble != 0x0F { return nibble }
        guard cursor < tableStart else { throw invalid("a length runs past the object area", at: cursor) }
        let intMarker = data[cursor]
        guard intMarker & 0xF0 == 0x10, intMarker & 0x0F <= 3 else {
            throw invalid("the length of the object at \(offset) is not an integer", at: cursor)
        }
        let size = 1 << Int(intMarker & 0x0F)
        let value = try readUnsigned(at: cursor + 1, size: size, limit: tableStart)
        cursor += 1 + size
        guard value <= UInt64(tableStart) else {
            throw invalid("the length \(value) of the object at \(offset) exceeds the document", at: offset)
        }
        return Int(value)
    }

    /// Checks that `count` items of `size` bytes from `cursor` stay in the object area.
    private func checkSpan(_ cursor: Int, count: Int, size: Int, object offset: Int) throws(SerializationError) {
        let (bytes, overflow) = count.multipliedReportingOverflow(by: size)
        guard !overflow, cursor <= tableStart, bytes <= tableStart - cursor else {
            throw invalid("the object at \(offset) claims \(count) items, which run past the object area", at: offset)
        }
    }

    private func parseObject(_ object: Int) throws(SerializationError) -> Parsed {
        let offset = offsets[object]
        let marker = data[offset]
        var cursor = offset + 1
        switch marker >> 4 {
        case 0x0:
            switch marker {
            case 0x08: return .leaf(.bool(false))
            case 0x09: return .leaf(.bool(true))
            case 0x00:
                throw PropertyListErrors.make(
                    .unsupportedFeature,
                    "The binary property list holds a null object (at byte \(offset)), which property list values "
                        + "cannot represent. Omit the entry instead of storing null.",
                    offset: offset)
            default: throw invalid("the marker 0x\(String(marker, radix: 16)) is not a known object type", at: offset)
            }
        case 0x1:
            let power = Int(marker & 0x0F)
            guard power <= 4 else { throw invalid("an integer of 2^\(power) bytes is not supported", at: offset) }
            let size = 1 << power
            if size == 16 {
                let high = try readUnsigned(at: cursor, size: 8, limit: tableStart)
                let low = try readUnsigned(at: cursor + 8, size: 8, limit: tableStart)
                return .leaf(.integer(PropertyListInteger(high: Int64(bitPattern: high), low: low)))
            }
            let value = try readUnsigned(at: cursor, size: size, limit: tableStart)
            return .leaf(
                .integer(size == 8 ? PropertyListInteger(Int64(bitPattern: value)) : PropertyListInteger(value)))
        case 0x2:
            let power = Int(marker & 0x0F)
            guard power == 2 || power == 3 else {
                throw invalid("a real of 2^\(power) bytes is not supported", at: offset)
            }
            let bits = try readUnsigned(at: cursor, size: 1 << power, limit: tableStart)
            return .leaf(.real(power == 2 ? Double(Float(bitPattern: UInt32(bits))) : Double(bitPattern: bits)))
        case 0x3:
            guard marker == 0x33 else { throw invalid("the date marker must be 0x33", at: offset) }
            let seconds = Double(bitPattern: try readUnsigned(at: cursor, size: 8, limit: tableStart))
            let since1970 = seconds + PropertyListDates.referenceOffset
            guard PropertyListDates.isRepresentable(since1970) else {
                throw invalid("the date \(seconds) is not finite or lies outside the years 1 to 9999", at: offset)
            }
            return .leaf(.date(Date(timeIntervalSinceReferenceDate: seconds)))
        case 0x4:
            let count = try length(marker: marker, at: offset, cursor: &cursor)
            try checkSpan(cursor, count: count, size: 1, object: offset)
            return .leaf(.data(Data(data[cursor..<cursor + count])))
        case 0x5:
            let count = try length(marker: marker, at: offset, cursor: &cursor)
            try checkSpan(cursor, count: count, size: 1, object: offset)
            let bytes = data[cursor..<cursor + count]
            guard bytes.allSatisfy({ $0 < 0x80 }) else {
                throw invalid("an ASCII string holds a byte over 0x7F", at: offset)
            }
            return .leaf(.string(String(decoding: bytes, as: UTF8.self)))
        case 0x6:
            let count = try length(marker: marker, at: offset, cursor: &cursor)
            try checkSpan(cursor, count: count, size: 2, object: offset)
            var units: [UInt16] = []
            units.reserveCapacity(count)
            for index in 0..<count {
                units.append(UInt16(data[cursor + 2 * index]) << 8 | UInt16(data[cursor + 2 * index + 1]))
            }
            var text = ""
            var decoder = UTF16()
            var iterator = units.makeIterator()
            decoding: while true {
                switch decoder.decode(&iterator) {
                case .scalarValue(let scalar): text.unicodeScalars.append(scalar)
                case .emptyInput: break decoding
                case .error: throw invalid("a UTF-16 string holds an unpaired surrogate", at: offset)
                }
            }
            return .leaf(.string(text))
        case 0x8:
            let size = Int(marker & 0x0F) + 1
            guard size <= 8 else { throw invalid("a UID of \(size) bytes is not supported", at: offset) }
            return .leaf(.uid(try readUnsigned(at: cursor, size: size, limit: tableStart)))
        case 0xA, 0xB, 0xC, 0xD:
            let count = try length(marker: marker, at: offset, cursor: &cursor)
            let isDictionary = marker >> 4 == 0xD
            let total = isDictionary ? count * 2 : count
            try checkSpan(cursor, count: total, size: referenceSize, object: offset)
            var references: [Int] = []
            references.reserveCapacity(total)
            for index in 0..<total {
                let reference = try readUnsigned(
                    at: cursor + index * referenceSize, size: referenceSize, limit: tableStart)
                guard reference < UInt64(offsets.count) else {
                    throw invalid(
                        "the reference \(reference) is not below the object count \(offsets.count)", at: offset)
                }
                references.append(Int(reference))
            }
            return .container(isDictionary ? .dictionary(keyCount: count) : .array, references: references)
        default:
            throw invalid("the marker 0x\(String(marker, radix: 16)) is not a known object type", at: offset)
        }
    }
}

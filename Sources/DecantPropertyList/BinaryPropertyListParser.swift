import DecantCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Reads `bplist00` documents without recursion: every offset and reference is range-checked, reference cycles are
/// rejected, and shared references count once per reference against `maxObjects` and `maxValueBytes`.
///
/// The offset table is read and validated once. Every finished object is cached by its number with its logical
/// size (values and string and data bytes), so a shared object (a dictionary key repeated through a catalogue, a
/// shared subtree) is decoded once but counted at every reference. Children are collected on flat stacks and moved
/// into their array or dictionary when the container is complete.
///
/// Each string object used as a dictionary key is hashed once and given a key identity (equal text, equal identity),
/// so repeated keys are found by comparing integers: a long key referenced from many dictionaries costs its length
/// once, not at every reference. All work is linear in the document.
struct BinaryPropertyListParser {
    private let data: UnsafeBufferPointer<UInt8>
    private let options: PropertyListParsingOptions
    private var offsets: [Int] = []
    private var tableStart = 0
    private var referenceSize = 1

    /// Parses the binary property list `data`.
    static func parse(
        _ data: Data, options: PropertyListParsingOptions
    ) throws(SerializationError)
        -> PropertyListValue
    {
        let result = data.withUnsafeBytes { raw -> Result<PropertyListValue, SerializationError> in
            var parser = BinaryPropertyListParser(data: raw.assumingMemoryBound(to: UInt8.self), options: options)
            do throws(SerializationError) {
                return .success(try parser.parse())
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    private init(data: UnsafeBufferPointer<UInt8>, options: PropertyListParsingOptions) {
        self.data = data
        self.options = options
    }

    /// The shortest binary property list: the 8-byte header, a 1-byte object and the 32-byte trailer.
    static let minimumLength = 8 + 1 + 32

    /// The error for a body that starts with `bplist` but cannot hold a header, an object and a trailer.
    private func tooShort() -> SerializationError {
        PropertyListErrors.make(
            .invalidBody,
            "The binary property list is invalid: the body starts with the magic 'bplist' but is \(data.count) "
                + "bytes long, shorter than the \(BinaryPropertyListParser.minimumLength) bytes of the 8-byte header, "
                + "one object and the 32-byte trailer. The body is truncated; send the complete bplist00 document.",
            offset: data.count)
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
        return bigEndian(at: offset, size: size)
    }

    /// The big-endian unsigned integer of `size` bytes (1 to 8) at `offset`, which the caller has range-checked.
    @inline(__always)
    private func bigEndian(at offset: Int, size: Int) -> UInt64 {
        switch size {
        case 1: return UInt64(data[offset])
        case 2: return UInt64(data[offset]) << 8 | UInt64(data[offset + 1])
        default:
            var value: UInt64 = 0
            for index in offset..<offset + size { value = value << 8 | UInt64(data[index]) }
            return value
        }
    }

    private mutating func parse() throws(SerializationError) -> PropertyListValue {
        guard data.starts(with: "bplist".utf8) else {
            throw invalid("it does not start with the magic 'bplist00'", at: 0)
        }
        guard data.count >= 8 else { throw tooShort() }
        guard data[6] == UInt8(ascii: "0"), data[7] == UInt8(ascii: "0") else {
            throw PropertyListErrors.make(
                .unsupportedFeature,
                "The binary property list has version '\(String(decoding: data[6..<8], as: UTF8.self))'; only "
                    + "version 00 is supported. Write the property list as bplist00 or XML.",
                offset: 6)
        }
        guard data.count >= BinaryPropertyListParser.minimumLength else { throw tooShort() }
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
        // Every object an honest writer emits is reachable, and each reachable object is a counted value or a key
        // beside one, so more than twice `maxObjects` cannot all be read: refuse before sizing the per-object tables
        // (about 50 bytes an object) by the claim.
        let (objectLimit, limitOverflow) = options.maxObjects.multipliedReportingOverflow(by: 2)
        guard limitOverflow || objectCount <= UInt64(max(objectLimit, 1)) else {
            throw PropertyListErrors.make(
                .limitExceeded,
                "The binary property list's offset table lists \(objectCount) objects, more than twice the limit of "
                    + "\(options.maxObjects) values (each object is a value or a dictionary key beside one). Raise the "
                    + "option 'maxObjects' if such input is expected.",
                offset: trailer + 8)
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
        // The whole table lies before the trailer (checked above), so its entries are read without further checks.
        let count = Int(objectCount)
        offsets = [Int](repeating: 0, count: count)
        for index in 0..<count {
            let entry = tableStart + index * offsetSize
            let offset = bigEndian(at: entry, size: offsetSize)
            guard offset >= 8, offset < tableOffset else {
                throw invalid("object \(index) has the offset \(offset), outside the object area", at: entry)
            }
            offsets[index] = Int(offset)
        }
        return try materialize(root: Int(topObject))
    }

    /// An open array or dictionary whose children are being read.
    private struct Frame {
        let object: Int
        let offset: Int
        let isDictionary: Bool
        /// The number of references: the element count, or twice the entry count.
        let total: Int
        /// Where the references start.
        let references: Int
        /// Where the frame's children start on the value stack.
        let valueStart: Int
        /// Where the frame's keys start on the key stack (dictionaries).
        let keyStart: Int
        var next = 0
        var size = 1
        /// The string and data bytes of the children so far, keys included.
        var bytes = 0
        /// The first key that is not a string: its position and kind.
        var badKey: (index: Int, kind: String)? = nil
    }

    /// What reading an object gave: a finished value with its size, or an array or dictionary now open on the stack.
    private enum Opened {
        case value(PropertyListValue, size: Int, bytes: Int)
        case container
    }

    /// A finished value waiting to be added to its container: its object number, value and logical size.
    private struct Finished {
        let object: Int
        let value: PropertyListValue
        let size: Int
        let bytes: Int
    }

    /// Builds the value of `root` with an explicit stack. Finished objects are cached with their logical size (the
    /// number of values they expand to), so a shared object is parsed once but counted at every reference.
    private func materialize(root: Int) throws(SerializationError) -> PropertyListValue {
        let objectCount = offsets.count
        // 0: not read yet, 1: an open container, 2: cached.
        var state = [UInt8](repeating: 0, count: objectCount)
        var cache = [PropertyListValue?](repeating: nil, count: objectCount)
        var cachedSizes = [(size: Int, bytes: Int)](repeating: (0, 0), count: objectCount)
        var stack: [Frame] = []
        let values = MoveStack<PropertyListValue>()
        let keys = MoveStack<String>()
        /// The key identity of each key on `keys`.
        var keyIdentities: [Int] = []
        /// The key identity of each string object used as a key, and of each distinct key text.
        var identityOfObject: [Int: Int] = [:]
        var identityOfText: [String: Int] = [:]

        func identity(ofKey key: String, object: Int) -> Int {
            if let known = identityOfObject[object] { return known }
            let identity: Int
            if let known = identityOfText[key] {
                identity = known
            } else {
                identity = identityOfText.count
                identityOfText[key] = identity
            }
            identityOfObject[object] = identity
            return identity
        }

        func open(_ object: Int) throws(SerializationError) -> Opened {
            switch state[object] {
            case 2:
                let (size, bytes) = cachedSizes[object]
                return .value(cache[object].unsafelyUnwrapped, size: size, bytes: bytes)
            case 1: throw invalid("object \(object) contains itself (a reference cycle)", at: offsets[object])
            default: break
            }
            let offset = offsets[object]
            let marker = data[offset]
            switch marker >> 4 {
            case 0xA, 0xB, 0xC, 0xD:
                var cursor = offset + 1
                let count = try length(marker: marker, at: offset, cursor: &cursor)
                let isDictionary = marker >> 4 == 0xD
                let total = isDictionary ? count * 2 : count
                try checkSpan(cursor, count: total, size: referenceSize, object: offset)
                try checkReferences(at: cursor, count: total, object: offset)
                guard stack.count < options.maxDepth else {
                    throw PropertyListErrors.tooDeep(options.maxDepth, offset: offset)
                }
                // Every value already waiting on the stack and every child of this container adds at least one value
                // to the result: refuse now rather than after building them.
                let (atLeast, atLeastOverflow) = values.count.addingReportingOverflow(count)
                guard !atLeastOverflow, atLeast <= options.maxObjects else {
                    throw PropertyListErrors.tooManyObjects(options.maxObjects, offset: offset)
                }
                state[object] = 1
                stack.append(
                    Frame(
                        object: object, offset: offset, isDictionary: isDictionary, total: total, references: cursor,
                        valueStart: values.count, keyStart: keys.count))
                return .container
            default:
                let value = try parseLeaf(at: offset, marker: marker)
                let bytes: Int
                switch value {
                case .string(let text): bytes = text.utf8.count
                case .data(let data): bytes = data.count
                default: return .value(value, size: 1, bytes: 0)
                }
                // Worth keeping: strings and data are shared in practice (keys above all) and costly to rebuild.
                state[object] = 2
                cache[object] = value
                cachedSizes[object] = (1, bytes)
                return .value(value, size: 1, bytes: bytes)
            }
        }

        var pending: Finished? = nil
        if case .value(let value, let size, let bytes) = try open(root) {
            pending = Finished(object: root, value: value, size: size, bytes: bytes)
        }
        while !stack.isEmpty {
            let top = stack.count - 1
            if let finished = pending {
                pending = nil
                let (total, overflow) = stack[top].size.addingReportingOverflow(finished.size)
                guard !overflow, total <= options.maxObjects else {
                    throw PropertyListErrors.tooManyObjects(options.maxObjects, offset: stack[top].offset)
                }
                stack[top].size = total
                let (bytes, bytesOverflow) = stack[top].bytes.addingReportingOverflow(finished.bytes)
                guard !bytesOverflow, bytes <= options.maxValueBytes else {
                    throw PropertyListErrors.tooManyBytes(options.maxValueBytes, offset: stack[top].offset)
                }
                stack[top].bytes = bytes
                let value = finished.value
                let index = stack[top].next - 1
                if stack[top].isDictionary, index < stack[top].total / 2 {
                    if case .string(let key) = value {
                        keyIdentities.append(identity(ofKey: key, object: finished.object))
                        keys.push(key)
                    } else if stack[top].badKey == nil {
                        stack[top].badKey = (index, value.kindDescription)
                    }
                } else {
                    values.push(value)
                }
            }
            if stack[top].next < stack[top].total {
                let child = Int(
                    bigEndian(at: stack[top].references + stack[top].next * referenceSize, size: referenceSize))
                stack[top].next += 1
                if case .value(let value, let size, let bytes) = try open(child) {
                    pending = Finished(object: child, value: value, size: size, bytes: bytes)
                }
                continue
            }
            let frame = stack.removeLast()
            let value: PropertyListValue
            if frame.isDictionary {
                if let badKey = frame.badKey {
                    throw invalid(
                        "a key of the dictionary (object \(frame.object)) is \(badKey.kind), not a string",
                        at: frame.offset)
                }
                let identities = Array(keyIdentities[frame.keyStart...])
                keyIdentities.removeSubrange(frame.keyStart...)
                value = .dictionary(
                    PropertyListDictionary(
                        keys: keys.popArray(from: frame.keyStart), values: values.popArray(from: frame.valueStart),
                        identities: identities))
            } else {
                value = .array(values.popArray(from: frame.valueStart))
            }
            let size = frame.size - (frame.isDictionary ? frame.total / 2 : 0)
            state[frame.object] = 2
            cache[frame.object] = value
            cachedSizes[frame.object] = (size, frame.bytes)
            pending = Finished(object: frame.object, value: value, size: size, bytes: frame.bytes)
        }
        guard let finished = pending else { throw invalid("the top object is missing", at: nil) }
        guard finished.size <= options.maxObjects else {
            throw PropertyListErrors.tooManyObjects(options.maxObjects, offset: nil)
        }
        guard finished.bytes <= options.maxValueBytes else {
            throw PropertyListErrors.tooManyBytes(options.maxValueBytes, offset: nil)
        }
        return finished.value
    }

    /// Checks that each of the `count` references from `cursor` names an object.
    private func checkReferences(at cursor: Int, count: Int, object offset: Int) throws(SerializationError) {
        let objectCount = UInt64(offsets.count)
        for index in 0..<count {
            let reference = bigEndian(at: cursor + index * referenceSize, size: referenceSize)
            guard reference < objectCount else {
                throw invalid("the reference \(reference) is not below the object count \(objectCount)", at: offset)
            }
        }
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

    /// Reads the object at `offset`, which is not an array, set or dictionary.
    private func parseLeaf(at offset: Int, marker: UInt8) throws(SerializationError) -> PropertyListValue {
        var cursor = offset + 1
        switch marker >> 4 {
        case 0x0:
            switch marker {
            case 0x08: return .bool(false)
            case 0x09: return .bool(true)
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
                return .integer(PropertyListInteger(high: Int64(bitPattern: high), low: low))
            }
            let value = try readUnsigned(at: cursor, size: size, limit: tableStart)
            return .integer(size == 8 ? PropertyListInteger(Int64(bitPattern: value)) : PropertyListInteger(value))
        case 0x2:
            let power = Int(marker & 0x0F)
            guard power == 2 || power == 3 else {
                throw invalid("a real of 2^\(power) bytes is not supported", at: offset)
            }
            let bits = try readUnsigned(at: cursor, size: 1 << power, limit: tableStart)
            return .real(power == 2 ? Double(Float(bitPattern: UInt32(bits))) : Double(bitPattern: bits))
        case 0x3:
            guard marker == 0x33 else { throw invalid("the date marker must be 0x33", at: offset) }
            let seconds = Double(bitPattern: try readUnsigned(at: cursor, size: 8, limit: tableStart))
            let since1970 = seconds + PropertyListDates.referenceOffset
            guard PropertyListDates.isRepresentable(since1970) else {
                throw invalid("the date \(seconds) is not finite or lies outside the years 1 to 9999", at: offset)
            }
            return .date(Date(timeIntervalSinceReferenceDate: seconds))
        case 0x4:
            let count = try length(marker: marker, at: offset, cursor: &cursor)
            try checkSpan(cursor, count: count, size: 1, object: offset)
            return .data(Data(UnsafeBufferPointer(rebasing: data[cursor..<cursor + count])))
        case 0x5:
            let count = try length(marker: marker, at: offset, cursor: &cursor)
            try checkSpan(cursor, count: count, size: 1, object: offset)
            let bytes = UnsafeBufferPointer(rebasing: data[cursor..<cursor + count])
            var combined: UInt8 = 0
            for byte in bytes { combined |= byte }
            guard combined < 0x80 else { throw invalid("an ASCII string holds a byte over 0x7F", at: offset) }
            return .string(String(decoding: bytes, as: UTF8.self))
        case 0x6:
            let count = try length(marker: marker, at: offset, cursor: &cursor)
            try checkSpan(cursor, count: count, size: 2, object: offset)
            guard let text = utf16String(at: cursor, count: count) else {
                throw invalid("a UTF-16 string holds an unpaired surrogate", at: offset)
            }
            return .string(text)
        case 0x8:
            let size = Int(marker & 0x0F) + 1
            guard size <= 8 else { throw invalid("a UID of \(size) bytes is not supported", at: offset) }
            return .uid(try readUnsigned(at: cursor, size: size, limit: tableStart))
        default:
            throw invalid("the marker 0x\(String(marker, radix: 16)) is not a known object type", at: offset)
        }
    }

    /// The big-endian UTF-16 text of `count` code units at `start` (range-checked by the caller), or `nil` when it
    /// holds an unpaired surrogate.
    private func utf16String(at start: Int, count: Int) -> String? {
        @inline(__always) func unit(_ index: Int) -> UInt32 {
            UInt32(data[start + 2 * index]) << 8 | UInt32(data[start + 2 * index + 1])
        }
        var valid = true
        let text = String(unsafeUninitializedCapacity: count * 3) { output in
            var written = 0
            var index = 0
            while index < count {
                var scalar = unit(index)
                index += 1
                if scalar & 0xF800 == 0xD800 {
                    guard scalar < 0xDC00, index < count, unit(index) & 0xFC00 == 0xDC00 else {
                        valid = false
                        return 0
                    }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10 | (unit(index) - 0xDC00))
                    index += 1
                }
                switch scalar {
                case 0..<0x80:
                    output[written] = UInt8(truncatingIfNeeded: scalar)
                    written += 1
                case 0x80..<0x800:
                    output[written] = UInt8(truncatingIfNeeded: 0xC0 | scalar >> 6)
                    output[written + 1] = UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F)
                    written += 2
                case 0x800..<0x10000:
                    output[written] = UInt8(truncatingIfNeeded: 0xE0 | scalar >> 12)
                    output[written + 1] = UInt8(truncatingIfNeeded: 0x80 | scalar >> 6 & 0x3F)
                    output[written + 2] = UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F)
                    written += 3
                default:
                    output[written] = UInt8(truncatingIfNeeded: 0xF0 | scalar >> 18)
                    output[written + 1] = UInt8(truncatingIfNeeded: 0x80 | scalar >> 12 & 0x3F)
                    output[written + 2] = UInt8(truncatingIfNeeded: 0x80 | scalar >> 6 & 0x3F)
                    output[written + 3] = UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F)
                    written += 4
                }
            }
            return written
        }
        return valid ? text : nil
    }
}

import DecantCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A strict reader for XML property lists: a small XML tokenizer for the plist DTD subset (elements, attributes,
/// character data, CDATA, comments, processing instructions, the five predefined entities and numeric character
/// references) feeding an explicit stack. External entities are never resolved; a DOCTYPE internal subset that
/// declares entities is rejected.
///
/// The reader works on the UTF-8 bytes of the decoded text: tags are classified by their bytes, character data
/// without references, CDATA or carriage returns is converted straight from the text, keys are interned, and
/// arrays and dictionaries are built once, from values moved off a flat stack, when their end tag arrives.
struct XMLPropertyListParser {
    private let text: UnsafeBufferPointer<UInt8>
    let options: PropertyListParsingOptions
    private var position = 0
    private var objectCount = 0
    private var frames: [Frame] = []
    private let values = MoveStack<PropertyListValue>()
    private let keys = MoveStack<String>()
    private var interner = KeyInterner()
    /// Character data that had to be decoded (references, CDATA, comments or carriage returns), reused.
    private var scratch: [UInt8] = []

    /// Parses `text`, the decoded XML property list.
    static func parse(
        _ text: String, options: PropertyListParsingOptions
    ) throws(SerializationError)
        -> PropertyListValue
    {
        var text = text
        if let result = parse(utf8Of: text, options: options) { return try result.get() }
        text.makeContiguousUTF8()
        return try parse(utf8Of: text, options: options)!.get()
    }

    private static func parse(
        utf8Of text: String, options: PropertyListParsingOptions
    )
        -> Result<PropertyListValue, SerializationError>?
    {
        text.utf8.withContiguousStorageIfAvailable { bytes in
            var parser = XMLPropertyListParser(text: bytes, options: options)
            do throws(SerializationError) {
                return .success(try parser.parse())
            } catch {
                return .failure(error)
            }
        }
    }

    private init(text: UnsafeBufferPointer<UInt8>, options: PropertyListParsingOptions) {
        self.text = text
        self.options = options
    }

    /// The elements of the plist DTD, each with its name's bytes packed little-endian into an integer.
    private enum Element: UInt64 {
        case plist = 0x74_73_69_6C_70
        case array = 0x79_61_72_72_61
        case dict = 0x74_63_69_64
        case key = 0x79_65_6B
        case `true` = 0x65_75_72_74
        case `false` = 0x65_73_6C_61_66
        case string = 0x67_6E_69_72_74_73
        case integer = 0x72_65_67_65_74_6E_69
        case real = 0x6C_61_65_72
        case date = 0x65_74_61_64
        case data = 0x61_74_61_64

        /// The element's name.
        var name: String {
            switch self {
            case .plist: return "plist"
            case .array: return "array"
            case .dict: return "dict"
            case .key: return "key"
            case .true: return "true"
            case .false: return "false"
            case .string: return "string"
            case .integer: return "integer"
            case .real: return "real"
            case .date: return "date"
            case .data: return "data"
            }
        }
    }

    /// An open `<plist>`, `<array>` or `<dict>`: its children are the values (and keys) pushed since it opened.
    private struct Frame {
        let element: Element
        let valueStart: Int
        let keyStart: Int
    }

    private func name(_ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: text[range]), as: UTF8.self)
    }

    /// The bytes of the name in `range` packed little-endian, or 0 when it is longer than 8 bytes.
    private func packedName(_ range: Range<Int>) -> UInt64 {
        guard range.count <= 8 else { return 0 }
        var packed: UInt64 = 0
        var index = range.upperBound
        while index > range.lowerBound {
            index -= 1
            packed = packed << 8 | UInt64(text[index])
        }
        return packed
    }

    private func error(
        _ message: String, at offset: Int? = nil, code: SerializationError.Code = .invalidBody
    ) -> SerializationError {
        let offset = offset ?? position
        let (line, column) = PropertyListErrors.lineAndColumn(of: offset, in: text)
        return PropertyListErrors.make(
            code,
            "The XML property list is invalid at line \(line), column \(column): \(message).",
            offset: offset)
    }

    private func starts(with literal: StaticString) -> Bool {
        let length = literal.utf8CodeUnitCount
        guard length <= text.count - position else { return false }
        let bytes = literal.utf8Start
        for index in 0..<length where text[position + index] != bytes[index] { return false }
        return true
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "-")
            || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: ":") || byte >= 0x80
    }

    private mutating func skipSpace() {
        while position < text.count, XMLPropertyListParser.isSpace(text[position]) { position += 1 }
    }

    /// Moves past `terminator`, or fails with `what` when the text ends first.
    private mutating func skip(past terminator: StaticString, what: String) throws(SerializationError) {
        let start = position
        let length = terminator.utf8CodeUnitCount
        let first = terminator.utf8Start[0]
        while position + length <= text.count {
            if text[position] == first, starts(with: terminator) {
                position += length
                return
            }
            position += 1
        }
        throw error("the \(what) is not closed with '\(terminator)'", at: start)
    }

    /// Skips comments, processing instructions and whitespace.
    private mutating func skipMisc() throws(SerializationError) {
        while true {
            skipSpace()
            guard position + 1 < text.count, text[position] == UInt8(ascii: "<") else { return }
            if starts(with: "<!--") {
                position += 4
                try skip(past: "-->", what: "comment")
            } else if text[position + 1] == UInt8(ascii: "?") {
                position += 2
                try skip(past: "?>", what: "processing instruction")
            } else {
                return
            }
        }
    }

    private mutating func skipDoctype() throws(SerializationError) {
        let start = position
        position += 9
        var quote: UInt8? = nil
        while position < text.count {
            let byte = text[position]
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: "[") {
                let subsetStart = position
                while position < text.count, text[position] != UInt8(ascii: "]") {
                    if starts(with: "<!ENTITY") {
                        throw error(
                            "the DOCTYPE declares entities, which Decant never expands (entity expansion attacks "
                                + "such as billion laughs start this way); remove the internal subset",
                            at: position, code: .unsupportedFeature)
                    }
                    position += 1
                }
                guard position < text.count else {
                    throw error("the DOCTYPE internal subset is not closed", at: subsetStart)
                }
            } else if byte == UInt8(ascii: ">") {
                position += 1
                return
            }
            position += 1
        }
        throw error("the DOCTYPE is not closed with '>'", at: start)
    }

    /// Reads a name at the position and returns its byte range.
    private mutating func readName() throws(SerializationError) -> Range<Int> {
        let start = position
        while position < text.count, XMLPropertyListParser.isNameByte(text[position]) { position += 1 }
        guard position > start else { throw error("a tag has no name") }
        return start..<position
    }

    /// Reads a start tag after its `<`: the name and whether it is self-closing. Attributes are checked and ignored.
    private mutating func readStartTag() throws(SerializationError) -> (name: Range<Int>, selfClosing: Bool) {
        let name = try readName()
        while true {
            skipSpace()
            guard position < text.count else { throw error("the tag <\(self.name(name))> is not closed") }
            if text[position] == UInt8(ascii: ">") {
                position += 1
                return (name, false)
            }
            if starts(with: "/>") {
                position += 2
                return (name, true)
            }
            _ = try readName()
            skipSpace()
            guard position < text.count, text[position] == UInt8(ascii: "=") else {
                throw error("an attribute of <\(self.name(name))> has no '=' and value")
            }
            position += 1
            skipSpace()
            guard position < text.count, text[position] == UInt8(ascii: "\"") || text[position] == UInt8(ascii: "'")
            else { throw error("an attribute value of <\(self.name(name))> is not quoted") }
            let quote = text[position]
            position += 1
            while position < text.count, text[position] != quote {
                if text[position] == UInt8(ascii: "<") { throw error("an attribute value contains '<'") }
                if text[position] == UInt8(ascii: "&") {
                    var ignored: [UInt8] = []
                    try readReference(into: &ignored)
                } else {
                    position += 1
                }
            }
            guard position < text.count else { throw error("an attribute value of <\(self.name(name))> is not closed") }
            position += 1
        }
    }

    /// Reads `&...;` at the position and appends its UTF-8 bytes.
    private mutating func readReference(into output: inout [UInt8]) throws(SerializationError) {
        let start = position
        position += 1
        let nameStart = position
        while position < text.count, text[position] != UInt8(ascii: ";"), position - nameStart < 12 {
            position += 1
        }
        guard position < text.count, text[position] == UInt8(ascii: ";") else {
            throw error("the reference starting with '&' is not closed with ';' (write '&amp;' for '&')", at: start)
        }
        let name = self.name(nameStart..<position)
        position += 1
        switch name {
        case "lt": output.append(UInt8(ascii: "<"))
        case "gt": output.append(UInt8(ascii: ">"))
        case "amp": output.append(UInt8(ascii: "&"))
        case "quot": output.append(UInt8(ascii: "\""))
        case "apos": output.append(UInt8(ascii: "'"))
        default:
            var scalarValue: UInt32? = nil
            if name.hasPrefix("#x") {
                scalarValue = UInt32(name.dropFirst(2), radix: 16)
            } else if name.hasPrefix("#") {
                scalarValue = UInt32(name.dropFirst(), radix: 10)
            } else {
                throw error(
                    "the entity '&\(name);' is not one of the five predefined XML entities (external and declared "
                        + "entities are never resolved)", at: start, code: .unsupportedFeature)
            }
            guard let value = scalarValue, let scalar = Unicode.Scalar(value),
                !name.dropFirst().hasPrefix("+"), !name.dropFirst(name.hasPrefix("#x") ? 2 : 1).isEmpty
            else { throw error("the character reference '&\(name);' is not a valid character", at: start) }
            output.append(contentsOf: String(scalar).utf8)
        }
    }

    /// Reads the character data of a leaf element up to its end tag `</name>`.
    ///
    /// Returns the range of the text that is the data when it holds no reference, CDATA section, comment or carriage
    /// return; otherwise returns `nil` and leaves the decoded data in ``scratch``.
    private mutating func readContent(of element: Element) throws(SerializationError) -> Range<Int>? {
        let start = position
        while position < text.count {
            let byte = text[position]
            if byte <= UInt8(ascii: "<")
                && (byte == UInt8(ascii: "<") || byte == UInt8(ascii: "&") || byte == 0x0D)
            {
                break
            }
            position += 1
        }
        if position + 1 < text.count, text[position] == UInt8(ascii: "<"), text[position + 1] == UInt8(ascii: "/") {
            let end = position
            try readEndTag(of: element)
            return start..<end
        }
        // Decoded into a local buffer (references need `self`), which goes back to `scratch` at the end.
        var output = scratch
        scratch = []
        output.removeAll(keepingCapacity: true)
        output.append(contentsOf: UnsafeBufferPointer(rebasing: text[start..<position]))
        while position < text.count {
            let byte = text[position]
            if byte == UInt8(ascii: "<") {
                if starts(with: "<![CDATA[") {
                    position += 9
                    let start = position
                    try skip(past: "]]>", what: "CDATA section")
                    output.append(contentsOf: UnsafeBufferPointer(rebasing: text[start..<position - 3]))
                } else if starts(with: "<!--") {
                    position += 4
                    try skip(past: "-->", what: "comment")
                } else if starts(with: "</") {
                    try readEndTag(of: element)
                    scratch = output
                    return nil
                } else {
                    throw error("<\(element.name)> may hold only text, not markup")
                }
            } else if byte == UInt8(ascii: "&") {
                try readReference(into: &output)
            } else if byte == 0x0D {
                output.append(0x0A)
                position += 1
                if position < text.count, text[position] == 0x0A { position += 1 }
            } else {
                output.append(byte)
                position += 1
            }
        }
        throw error("<\(element.name)> is not closed")
    }

    /// Reads `</name>` at the position, which must close `element`.
    private mutating func readEndTag(of element: Element) throws(SerializationError) {
        position += 2
        let closing = try readName()
        skipSpace()
        guard packedName(closing) == element.rawValue, position < text.count, text[position] == UInt8(ascii: ">")
        else {
            throw error("<\(element.name)> is closed by </\(name(closing))>")
        }
        position += 1
    }

    mutating func parse() throws(SerializationError) -> PropertyListValue {
        try skipMisc()
        if starts(with: "<!DOCTYPE") {
            try skipDoctype()
        }
        var result: PropertyListValue? = nil
        var sawPlist = false
        repeat {
            try skipMisc()
            guard position < text.count else {
                throw error(
                    frames.isEmpty
                        ? "the document holds no value" : "the document ends inside <\(frames.last!.element.name)>")
            }
            guard text[position] == UInt8(ascii: "<") else {
                throw error("text appears where an element was expected")
            }
            let tagStart = position
            if position + 1 < text.count, text[position + 1] == UInt8(ascii: "/") {
                try readEndTag(at: tagStart, result: &result)
                continue
            }
            if starts(with: "<!") { throw error("'<!' markup is not allowed here") }
            position += 1
            let (name, selfClosing) = try readStartTag()
            switch Element(rawValue: packedName(name)) {
            case .plist?:
                guard frames.isEmpty, result == nil, !sawPlist, !selfClosing else {
                    throw error("<plist> may appear only once, as the root, holding one value", at: tagStart)
                }
                sawPlist = true
                frames.append(Frame(element: .plist, valueStart: values.count, keyStart: keys.count))
            case .array?, .dict?:
                let element: Element = text[name.lowerBound] == UInt8(ascii: "a") ? .array : .dict
                guard frames.count - (sawPlist ? 1 : 0) < options.maxDepth else {
                    throw PropertyListErrors.tooDeep(options.maxDepth, offset: tagStart)
                }
                if selfClosing {
                    let empty: PropertyListValue =
                        element == .array ? .array([]) : .dictionary(PropertyListDictionary())
                    try deliver(empty, result: &result, at: tagStart)
                } else {
                    try checkSlot(at: tagStart)
                    frames.append(Frame(element: element, valueStart: values.count, keyStart: keys.count))
                }
            case .key?:
                guard let frame = frames.last, frame.element == .dict, !hasPendingKey(frame) else {
                    throw error("<key> may appear only in a <dict>, before each value", at: tagStart)
                }
                if selfClosing {
                    keys.push("")
                } else if let range = try readContent(of: .key) {
                    keys.push(interner.intern(UnsafeBufferPointer(rebasing: text[range])))
                } else {
                    let decoded = scratch
                    keys.push(decoded.withUnsafeBufferPointer { interner.intern($0) })
                }
            case let element? where element != .plist:
                let value: PropertyListValue
                if selfClosing {
                    value = try leaf(element, UnsafeBufferPointer(start: nil, count: 0), at: tagStart)
                } else if let range = try readContent(of: element) {
                    value = try leaf(element, UnsafeBufferPointer(rebasing: text[range]), at: tagStart)
                } else {
                    let decoded = scratch
                    value = try decoded.withUnsafeBufferPointer { (bytes) throws(SerializationError) in
                        try leaf(element, bytes, at: tagStart)
                    }
                }
                try deliver(value, result: &result, at: tagStart)
            default:
                throw error("<\(self.name(name))> is not a property list element", at: tagStart)
            }
        } while !frames.isEmpty
        try skipMisc()
        guard position == text.count else { throw error("content follows the property list's root element") }
        guard let result else { throw error("the document holds no value") }
        return result
    }

    /// Whether the dictionary `frame` has read a key that still waits for its value.
    private func hasPendingKey(_ frame: Frame) -> Bool {
        keys.count - frame.keyStart > values.count - frame.valueStart
    }

    /// Reads the end tag starting at `tagStart` and closes the innermost open element with it.
    private mutating func readEndTag(at tagStart: Int, result: inout PropertyListValue?) throws(SerializationError) {
        position += 2
        let name = try readName()
        skipSpace()
        guard position < text.count, text[position] == UInt8(ascii: ">") else {
            throw error("the end tag </\(self.name(name))> is not closed")
        }
        position += 1
        guard let frame = frames.popLast(), frame.element.rawValue == packedName(name) else {
            throw error("the end tag </\(self.name(name))> does not close an open element", at: tagStart)
        }
        switch frame.element {
        case .plist:
            guard values.count > frame.valueStart else { throw error("<plist> holds no value", at: tagStart) }
            result = values.popLast()
        case .array:
            try deliver(.array(values.popArray(from: frame.valueStart)), result: &result, at: tagStart)
        default:
            if hasPendingKey(frame) { throw error("the key '\(keys.last)' has no value", at: tagStart) }
            let dictionary = PropertyListDictionary(
                checkingKeys: keys.popArray(from: frame.keyStart), values: values.popArray(from: frame.valueStart))
            try deliver(.dictionary(dictionary), result: &result, at: tagStart)
        }
    }

    /// Fails when the innermost open element cannot take a value now.
    private func checkSlot(at offset: Int) throws(SerializationError) {
        guard let frame = frames.last else { return }
        switch frame.element {
        case .plist where values.count > frame.valueStart:
            throw error("<plist> holds more than one value", at: offset)
        case .dict where !hasPendingKey(frame):
            throw error("a value in a <dict> has no <key> before it", at: offset)
        default:
            return
        }
    }

    private mutating func deliver(
        _ value: PropertyListValue, result: inout PropertyListValue?, at offset: Int
    ) throws(SerializationError) {
        objectCount += 1
        guard objectCount <= options.maxObjects else {
            throw PropertyListErrors.tooManyObjects(options.maxObjects, offset: offset)
        }
        guard let frame = frames.last else {
            guard result == nil else { throw error("the document holds more than one root value", at: offset) }
            result = value
            return
        }
        switch frame.element {
        case .plist where values.count > frame.valueStart:
            throw error("<plist> holds more than one value", at: offset)
        case .dict where !hasPendingKey(frame):
            throw error("a value in a <dict> has no <key> before it", at: offset)
        default:
            values.push(value)
        }
    }

    private func leaf(
        _ element: Element, _ content: UnsafeBufferPointer<UInt8>, at offset: Int
    )
        throws(SerializationError) -> PropertyListValue
    {
        switch element {
        case .true, .false:
            guard content.isEmpty else { throw error("<\(element.name)> must be empty", at: offset) }
            return .bool(element == .true)
        case .string:
            return .string(String(decoding: content, as: UTF8.self))
        case .integer:
            let trimmed = PropertyListNumbers.trimmingXMLSpace(content)
            guard let integer = PropertyListNumbers.integer(trimmed) else {
                throw error(
                    "'\(String(decoding: trimmed, as: UTF8.self).prefix(40))' is not an integer of at most 128 bits",
                    at: offset)
            }
            return .integer(integer)
        case .real:
            let trimmed = PropertyListNumbers.trimmingXMLSpace(content)
            guard let real = PropertyListNumbers.real(trimmed) else {
                throw error("'\(String(decoding: trimmed, as: UTF8.self).prefix(40))' is not a real number", at: offset)
            }
            return .real(real)
        case .date:
            let trimmed = PropertyListNumbers.trimmingXMLSpace(content)
            guard let date = PropertyListNumbers.date(trimmed) else {
                throw error(
                    "'\(String(decoding: trimmed, as: UTF8.self).prefix(40))' is not a real UTC date in the years "
                        + "1 to 9999, written as 2004-10-26T10:33:33Z",
                    at: offset)
            }
            return .date(date)
        default:
            guard let data = PropertyListBase64.decode(content) else {
                throw error("the <data> element is not valid base64", at: offset)
            }
            return .data(data)
        }
    }
}

/// A growable stack that hands out its top elements as an array by moving them, so that building an array or a
/// dictionary neither copies nor retains its children.
final class MoveStack<Element> {
    private var storage: UnsafeMutablePointer<Element>
    private var capacity: Int
    /// The number of elements on the stack.
    private(set) var count = 0

    init(capacity: Int = 32) {
        self.capacity = capacity
        storage = .allocate(capacity: capacity)
    }

    deinit {
        storage.deinitialize(count: count)
        storage.deallocate()
    }

    /// The top element; the stack must not be empty.
    var last: Element { storage[count - 1] }

    /// Pushes `element`.
    func push(_ element: consuming Element) {
        if count == capacity {
            let grown = UnsafeMutablePointer<Element>.allocate(capacity: capacity * 2)
            grown.moveInitialize(from: storage, count: count)
            storage.deallocate()
            storage = grown
            capacity *= 2
        }
        (storage + count).initialize(to: element)
        count += 1
    }

    /// Removes and returns the top element; the stack must not be empty.
    func popLast() -> Element {
        count -= 1
        return (storage + count).move()
    }

    /// Removes the elements from `start` up, returning them in order.
    func popArray(from start: Int) -> [Element] {
        let length = count - start
        guard length > 0 else { return [] }
        let source = storage + start
        count = start
        return Array(unsafeUninitializedCapacity: length) { buffer, initialized in
            buffer.baseAddress!.moveInitialize(from: source, count: length)
            initialized = length
        }
    }
}

/// Interns dictionary keys by their UTF-8 bytes, so that a key repeated through a document is built once.
///
/// The table is open-addressed with a fixed hash, so keys crafted to collide could make every lookup walk a long
/// run of slots; a lookup gives up after ``maxProbes`` slots and builds the key without interning it, which keeps
/// every key linear in its length whatever the input.
struct KeyInterner {
    /// The most slots a lookup visits (the table is at most half full: honest lookups visit one or two).
    static let maxProbes = 32

    private var slots: [Int32] = Array(repeating: -1, count: 64)
    private var starts: [Int] = []
    private var hashes: [UInt64] = []
    private var strings: [String] = []
    private var arena: [UInt8] = []

    /// The string of `bytes` (valid UTF-8), built the first time these bytes are seen.
    mutating func intern(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        guard bytes.count <= 256 else { return String(decoding: bytes, as: UTF8.self) }
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0100_0000_01B3 }
        hash ^= UInt64(bytes.count)
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash ^ hash >> 29) & mask
        var probes = 0
        while true {
            let entry = Int(slots[slot])
            if entry < 0 { break }
            if hashes[entry] == hash, matches(entry, bytes) { return strings[entry] }
            probes += 1
            guard probes < KeyInterner.maxProbes else { return String(decoding: bytes, as: UTF8.self) }
            slot = (slot + 1) & mask
        }
        let string = String(decoding: bytes, as: UTF8.self)
        slots[slot] = Int32(strings.count)
        starts.append(arena.count)
        arena.append(contentsOf: bytes)
        hashes.append(hash)
        strings.append(string)
        if strings.count * 2 > slots.count { grow() }
        return string
    }

    private func matches(_ entry: Int, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let start = starts[entry]
        let end = entry + 1 < starts.count ? starts[entry + 1] : arena.count
        guard end - start == bytes.count else { return false }
        for index in 0..<bytes.count where arena[start + index] != bytes[index] { return false }
        return true
    }

    private mutating func grow() {
        slots = Array(repeating: -1, count: slots.count * 2)
        let mask = slots.count - 1
        for entry in hashes.indices {
            let hash = hashes[entry]
            var slot = Int(truncatingIfNeeded: hash ^ hash >> 29) & mask
            while slots[slot] >= 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(entry)
        }
    }
}

extension String {
    /// The string without leading and trailing XML whitespace.
    func trimmingXMLSpace() -> String {
        let scalars = unicodeScalars
        let isSpace: (Unicode.Scalar) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let first = scalars.firstIndex(where: { !isSpace($0) }),
            let last = scalars.lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(scalars[first...last])
    }
}

/// Base64 as XML property lists hold it in `<data>`: whitespace anywhere, padding optional.
enum PropertyListBase64 {
    /// The bytes of `text`, or `nil` when it is not valid base64.
    ///
    /// Reads what `Data(base64Encoded:)` reads once spaces, tabs, carriage returns and line feeds are removed and
    /// the text is padded with `=` to a multiple of 4. Canonical input is decoded here; anything unusual (padding
    /// that is not at the end, non-zero bits in the last character) goes to `Data(base64Encoded:)` itself.
    static func decode(_ text: UnsafeBufferPointer<UInt8>) -> Data? {
        if let data = decodeCanonical(text) { return data }
        let content = String(decoding: text, as: UTF8.self)
        let compact = String(content.unicodeScalars.filter { !" \t\r\n".unicodeScalars.contains($0) })
        let padded = compact + String(repeating: "=", count: (4 - compact.utf8.count % 4) % 4)
        return Data(base64Encoded: padded)
    }

    /// The 6-bit value of a base64 character, or 0xFF.
    @inline(__always)
    private static func sextet(_ byte: UInt8) -> UInt8 {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return byte &- UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return byte &- UInt8(ascii: "a") &+ 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte &- UInt8(ascii: "0") &+ 52
        case UInt8(ascii: "+"): return 62
        case UInt8(ascii: "/"): return 63
        default: return 0xFF
        }
    }

    /// Decodes alphabet characters and whitespace followed by at most the right number of `=`; `nil` otherwise.
    private static func decodeCanonical(_ text: UnsafeBufferPointer<UInt8>) -> Data? {
        var characters = 0
        var padding = 0
        for byte in text {
            if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { continue }
            if byte == UInt8(ascii: "=") {
                padding += 1
            } else if padding > 0 || sextet(byte) == 0xFF {
                return nil
            } else {
                characters += 1
            }
        }
        let remainder = characters % 4
        guard remainder != 1, padding <= (4 - remainder) % 4 else { return nil }
        let length = characters / 4 * 3 + (remainder == 0 ? 0 : remainder - 1)
        var data = Data(count: length)
        let valid = data.withUnsafeMutableBytes { (output: UnsafeMutableRawBufferPointer) -> Bool in
            var accumulator: UInt32 = 0
            var pending = 0
            var written = 0
            for byte in text {
                let value = sextet(byte)
                if value == 0xFF { continue }
                accumulator = accumulator << 6 | UInt32(value)
                pending += 1
                if pending == 4 {
                    output[written] = UInt8(truncatingIfNeeded: accumulator >> 16)
                    output[written + 1] = UInt8(truncatingIfNeeded: accumulator >> 8)
                    output[written + 2] = UInt8(truncatingIfNeeded: accumulator)
                    written += 3
                    pending = 0
                    accumulator = 0
                }
            }
            switch pending {
            case 2:
                guard accumulator & 0x0F == 0 else { return false }
                output[written] = UInt8(truncatingIfNeeded: accumulator >> 4)
            case 3:
                guard accumulator & 0x03 == 0 else { return false }
                output[written] = UInt8(truncatingIfNeeded: accumulator >> 10)
                output[written + 1] = UInt8(truncatingIfNeeded: accumulator >> 2)
            default:
                break
            }
            return true
        }
        return valid ? data : nil
    }
}

/// Number and date text as XML property lists write them.
enum PropertyListNumbers {
    /// `bytes` without leading and trailing XML whitespace.
    static func trimmingXMLSpace(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        var start = 0
        var end = bytes.count
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
        while start < end, isSpace(bytes[start]) { start += 1 }
        while end > start, isSpace(bytes[end - 1]) { end -= 1 }
        return UnsafeBufferPointer(rebasing: bytes[start..<end])
    }

    /// A decimal integer (optional sign) or a `0x` hexadecimal one, within 128 signed bits.
    static func integer(_ text: String) -> PropertyListInteger? {
        Array(text.utf8).withUnsafeBufferPointer { integer($0) }
    }

    /// A decimal integer (optional sign) or a `0x` hexadecimal one, within 128 signed bits, from UTF-8 bytes.
    static func integer(_ text: UnsafeBufferPointer<UInt8>) -> PropertyListInteger? {
        var index = 0
        var negative = false
        if let first = text.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "+") {
            negative = first == UInt8(ascii: "-")
            index = 1
        }
        var radix: UInt64 = 10
        if text.count - index >= 2, text[index] == UInt8(ascii: "0"),
            text[index + 1] == UInt8(ascii: "x") || text[index + 1] == UInt8(ascii: "X")
        {
            radix = 16
            index += 2
        }
        guard index < text.count else { return nil }
        if radix == 10, text.count - index <= 18 {
            // At most 18 digits: fits an Int64 without overflow checks.
            var value: Int64 = 0
            while index < text.count {
                let digit = text[index] &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                value = value * 10 + Int64(digit)
                index += 1
            }
            return PropertyListInteger(negative ? -value : value)
        }
        var high: UInt64 = 0
        var low: UInt64 = 0
        while index < text.count {
            let byte = text[index]
            index += 1
            let digit: UInt64
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt64(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f") where radix == 16: digit = UInt64(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F") where radix == 16: digit = UInt64(byte - UInt8(ascii: "A") + 10)
            default: return nil
            }
            let (lowCarry, lowProduct) = low.multipliedFullWidth(by: radix)
            let (highProduct, highOverflow) = high.multipliedReportingOverflow(by: radix)
            guard !highOverflow else { return nil }
            let (newHigh, carryOverflow) = highProduct.addingReportingOverflow(lowCarry)
            guard !carryOverflow else { return nil }
            let (newLow, addCarry) = lowProduct.addingReportingOverflow(digit)
            let (finalHigh, finalOverflow) = newHigh.addingReportingOverflow(addCarry ? 1 : 0)
            guard !finalOverflow else { return nil }
            high = finalHigh
            low = newLow
        }
        return PropertyListInteger.fromMagnitude(high: high, low: low, negative: negative)
    }

    /// A decimal real, `inf`, `-inf` or `nan`.
    static func real(_ text: String) -> Double? {
        guard !text.isEmpty, !text.lowercased().hasPrefix("0x"), !text.lowercased().hasPrefix("-0x") else { return nil }
        return Double(text)
    }

    /// A decimal real, `inf`, `-inf` or `nan`, from UTF-8 bytes.
    ///
    /// `-ddd.ddd[e±dd]` with at most 15 significant digits and a small exponent is converted exactly here (one
    /// correctly rounded multiplication or division of exact operands); other text goes to `Double(_:)`.
    static func real(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
        if let value = simpleReal(text) { return value }
        return real(String(decoding: text, as: UTF8.self))
    }

    private static func simpleReal(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
        var index = 0
        let negative = text.first == UInt8(ascii: "-")
        if negative { index = 1 }
        var mantissa: UInt64 = 0
        var significant = 0
        var exponent = 0
        let integerStart = index
        while index < text.count, text[index] &- UInt8(ascii: "0") < 10 {
            mantissa = mantissa &* 10 &+ UInt64(text[index] &- UInt8(ascii: "0"))
            if mantissa != 0 { significant += 1 }
            index += 1
        }
        guard index > integerStart else { return nil }
        if index < text.count, text[index] == UInt8(ascii: ".") {
            index += 1
            let fractionStart = index
            while index < text.count, text[index] &- UInt8(ascii: "0") < 10 {
                mantissa = mantissa &* 10 &+ UInt64(text[index] &- UInt8(ascii: "0"))
                if mantissa != 0 { significant += 1 }
                exponent -= 1
                index += 1
            }
            guard index > fractionStart else { return nil }
        }
        guard significant <= 15 else { return nil }
        if index < text.count, text[index] == UInt8(ascii: "e") || text[index] == UInt8(ascii: "E") {
            index += 1
            var exponentNegative = false
            if index < text.count, text[index] == UInt8(ascii: "-") || text[index] == UInt8(ascii: "+") {
                exponentNegative = text[index] == UInt8(ascii: "-")
                index += 1
            }
            let digitsStart = index
            var written = 0
            while index < text.count, text[index] &- UInt8(ascii: "0") < 10, index - digitsStart < 4 {
                written = written * 10 + Int(text[index] &- UInt8(ascii: "0"))
                index += 1
            }
            guard index > digitsStart else { return nil }
            exponent += exponentNegative ? -written : written
        }
        guard index == text.count, exponent >= -22, exponent <= 22 else { return nil }
        var power = 1.0
        for _ in 0..<abs(exponent) { power *= 10 }
        let magnitude = exponent < 0 ? Double(mantissa) / power : Double(mantissa) * power
        return negative ? -magnitude : magnitude
    }

    /// `YYYY-MM-DD[THH[:MM[:SS]]]Z`, UTC: a real date and time in the years 1 to 9999 (see
    /// ``PropertyListDates/secondsSince1970(year:month:day:hour:minute:second:)``).
    static func date(_ text: String) -> Date? {
        Array(text.utf8).withUnsafeBufferPointer { date($0) }
    }

    /// `YYYY-MM-DD[THH[:MM[:SS]]]Z`, UTC, from UTF-8 bytes: a real date and time in the years 1 to 9999.
    static func date(_ bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        guard bytes.last == UInt8(ascii: "Z") else { return nil }
        // Year, month, day, hour, minute, second; the fields not written keep these defaults.
        var fields: (Int, Int, Int, Int, Int, Int) = (0, 1, 1, 0, 0, 0)
        var fieldCount = 0
        var index = 0
        let end = bytes.count - 1
        while index < end, fieldCount < 6 {
            if fieldCount > 0 {
                let separator =
                    fieldCount < 3 ? UInt8(ascii: "-") : fieldCount == 3 ? UInt8(ascii: "T") : UInt8(ascii: ":")
                guard bytes[index] == separator else { return nil }
                index += 1
            }
            let width = fieldCount == 0 ? 4 : 2
            guard index + width <= end else { return nil }
            var value = 0
            for offset in index..<index + width {
                let digit = bytes[offset] &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                value = value * 10 + Int(digit)
            }
            switch fieldCount {
            case 0: fields.0 = value
            case 1: fields.1 = value
            case 2: fields.2 = value
            case 3: fields.3 = value
            case 4: fields.4 = value
            default: fields.5 = value
            }
            fieldCount += 1
            index += width
        }
        // The year, month and day are required, as `plistlib` requires them.
        guard index == end, fieldCount >= 3 else { return nil }
        let (year, month, day, hour, minute, second) = fields
        guard
            let seconds = PropertyListDates.secondsSince1970(
                year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        else { return nil }
        return Date(timeIntervalSince1970: seconds)
    }
}

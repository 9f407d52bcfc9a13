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

    /// Checks the XML declaration (XML 1.0 §2.8, `XMLDecl`) when the text starts with one: `version` first, then
    /// optionally `encoding` and `standalone`, each `name="value"` or `name='value'`, as expat (and so Python's
    /// `plistlib`) requires. A misspelt or misplaced pseudo-attribute is an error, not a processing instruction.
    private mutating func readXMLDeclaration() throws(SerializationError) {
        guard starts(with: "<?xml"), position + 5 < text.count,
            Self.isSpace(text[position + 5]) || text[position + 5] == UInt8(ascii: "?")
        else { return }
        let start = position
        position += 5
        var expected: [(name: StaticString, required: Bool)] = [
            ("version", true), ("encoding", false),
            ("standalone", false),
        ]
        while true {
            let hadSpace = position < text.count && Self.isSpace(text[position])
            skipSpace()
            if starts(with: "?>") {
                if let missing = expected.first(where: \.required) {
                    throw error("the XML declaration has no '\(missing.name)'", at: start)
                }
                position += 2
                return
            }
            guard hadSpace, let index = expected.firstIndex(where: { starts(with: $0.name) }) else {
                // What may come here: the pseudo-attributes left, up to the first required one (`version`).
                let next = expected.firstIndex(where: \.required).map { expected[...$0] } ?? expected[...]
                let allowed = next.map { "'\($0.name)'" } + (next.contains(where: \.required) ? [] : ["'?>'"])
                throw error(
                    "the XML declaration is not well-formed: expected " + allowed.joined(separator: " or ")
                        + " (XML 1.0 §2.8)", at: position)
            }
            let name = expected[index].name
            if let missing = expected[..<index].first(where: \.required) {
                throw error("the XML declaration has '\(name)' before '\(missing.name)'", at: position)
            }
            position += name.utf8CodeUnitCount
            skipSpace()
            guard position < text.count, text[position] == UInt8(ascii: "=") else {
                throw error("the XML declaration's '\(name)' has no '='", at: position)
            }
            position += 1
            skipSpace()
            guard position < text.count, text[position] == UInt8(ascii: "\"") || text[position] == UInt8(ascii: "'")
            else {
                throw error("the XML declaration's '\(name)' value is not quoted", at: position)
            }
            let quote = text[position]
            let valueStart = position + 1
            position = valueStart
            while position < text.count, text[position] != quote {
                guard text[position] >= 0x20 else { throw error("the XML declaration holds a control character") }
                position += 1
            }
            guard position < text.count else { throw error("the XML declaration is not closed", at: start) }
            position += 1
            expected.removeSubrange(...index)
        }
    }

    /// XML 1.0 §2.2: no control character other than tab, line feed and carriage return, in the DOCTYPE as anywhere.
    private func checkDoctypeCharacter(_ byte: UInt8) throws(SerializationError) {
        guard byte < 0x20, !Self.isSpace(byte) else { return }
        throw error(
            "the DOCTYPE holds the control character 0x\(String(byte, radix: 16, uppercase: true)), which XML does "
                + "not allow (XML 1.0 §2.2)")
    }

    private mutating func skipDoctype() throws(SerializationError) {
        let start = position
        position += 9
        var quote: UInt8? = nil
        while position < text.count {
            let byte = text[position]
            try checkDoctypeCharacter(byte)
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: "[") {
                let subsetStart = position
                while position < text.count, text[position] != UInt8(ascii: "]") {
                    try checkDoctypeCharacter(text[position])
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
        try readXMLDeclaration()
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

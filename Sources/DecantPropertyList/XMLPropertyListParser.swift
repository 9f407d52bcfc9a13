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
struct XMLPropertyListParser {
    let text: [UInt8]
    let options: PropertyListParsingOptions
    private var position = 0
    private var objectCount = 0

    init(text: [UInt8], options: PropertyListParsingOptions) {
        self.text = text
        self.options = options
    }

    private enum Frame {
        case plist(value: PropertyListValue?)
        case array([PropertyListValue])
        case dictionary([(key: String, value: PropertyListValue)], pendingKey: String?)

        var name: String {
            switch self {
            case .plist: return "plist"
            case .array: return "array"
            case .dictionary: return "dict"
            }
        }
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

    private func starts(with literal: String, at offset: Int? = nil) -> Bool {
        var index = offset ?? position
        for byte in literal.utf8 {
            guard index < text.count, text[index] == byte else { return false }
            index += 1
        }
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
    private mutating func skip(past terminator: String, what: String) throws(SerializationError) {
        let start = position
        let length = terminator.utf8.count
        while position + length <= text.count {
            if starts(with: terminator) {
                position += length
                return
            }
            position += 1
        }
        throw error("the \(what) is not closed with '\(terminator)'", at: start)
    }

    /// Skips comments, processing instructions and whitespace; returns false at non-space character data.
    private mutating func skipMisc() throws(SerializationError) {
        while true {
            skipSpace()
            if starts(with: "<!--") {
                position += 4
                try skip(past: "-->", what: "comment")
            } else if starts(with: "<?") {
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

    private mutating func readName() throws(SerializationError) -> String {
        let start = position
        while position < text.count, XMLPropertyListParser.isNameByte(text[position]) { position += 1 }
        guard position > start else { throw error("a tag has no name") }
        return String(decoding: text[start..<position], as: UTF8.self)
    }

    /// Reads a start tag after its `<`: the name and whether it is self-closing. Attributes are checked and ignored.
    private mutating func readStartTag() throws(SerializationError) -> (name: String, selfClosing: Bool) {
        let name = try readName()
        while true {
            skipSpace()
            guard position < text.count else { throw error("the tag <\(name)> is not closed") }
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
                throw error("an attribute of <\(name)> has no '=' and value")
            }
            position += 1
            skipSpace()
            guard position < text.count, text[position] == UInt8(ascii: "\"") || text[position] == UInt8(ascii: "'")
            else { throw error("an attribute value of <\(name)> is not quoted") }
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
            guard position < text.count else { throw error("an attribute value of <\(name)> is not closed") }
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
        let name = String(decoding: text[nameStart..<position], as: UTF8.self)
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
            output.append(contentsOf: Array(String(scalar).utf8))
        }
    }

    /// Reads the character data of a leaf element up to its end tag `</name>`.
    private mutating func readContent(of name: String) throws(SerializationError) -> String {
        var output: [UInt8] = []
        while position < text.count {
            let byte = text[position]
            if byte == UInt8(ascii: "<") {
                if starts(with: "<![CDATA[") {
                    position += 9
                    let start = position
                    try skip(past: "]]>", what: "CDATA section")
                    output.append(contentsOf: text[start..<position - 3])
                } else if starts(with: "<!--") {
                    position += 4
                    try skip(past: "-->", what: "comment")
                } else if starts(with: "</") {
                    position += 2
                    let closing = try readName()
                    skipSpace()
                    guard closing == name, position < text.count, text[position] == UInt8(ascii: ">") else {
                        throw error("<\(name)> is closed by </\(closing)>")
                    }
                    position += 1
                    return String(decoding: output, as: UTF8.self)
                } else {
                    throw error("<\(name)> may hold only text, not markup")
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
        throw error("<\(name)> is not closed")
    }

    mutating func parse() throws(SerializationError) -> PropertyListValue {
        try skipMisc()
        if starts(with: "<!DOCTYPE") {
            try skipDoctype()
        }
        var stack: [Frame] = []
        var result: PropertyListValue? = nil
        var sawPlist = false
        repeat {
            try skipMisc()
            guard position < text.count else {
                throw error(
                    stack.isEmpty ? "the document holds no value" : "the document ends inside <\(stack.last!.name)>")
            }
            guard text[position] == UInt8(ascii: "<") else {
                throw error("text appears where an element was expected")
            }
            let tagStart = position
            if starts(with: "</") {
                position += 2
                let name = try readName()
                skipSpace()
                guard position < text.count, text[position] == UInt8(ascii: ">") else {
                    throw error("the end tag </\(name)> is not closed")
                }
                position += 1
                guard let frame = stack.popLast(), frame.name == name else {
                    throw error("the end tag </\(name)> does not close an open element", at: tagStart)
                }
                switch frame {
                case .plist(let value):
                    guard let value else { throw error("<plist> holds no value", at: tagStart) }
                    result = value
                case .array(let values):
                    try deliver(.array(values), to: &stack, result: &result, at: tagStart)
                case .dictionary(let entries, let pendingKey):
                    if let pendingKey { throw error("the key '\(pendingKey)' has no value", at: tagStart) }
                    try deliver(.dictionary(PropertyListDictionary(entries)), to: &stack, result: &result, at: tagStart)
                }
                continue
            }
            if starts(with: "<!") { throw error("'<!' markup is not allowed here") }
            position += 1
            let (name, selfClosing) = try readStartTag()
            switch name {
            case "plist":
                guard stack.isEmpty, result == nil, !sawPlist, !selfClosing else {
                    throw error("<plist> may appear only once, as the root, holding one value", at: tagStart)
                }
                sawPlist = true
                stack.append(.plist(value: nil))
            case "array", "dict":
                guard stack.count - (sawPlist ? 1 : 0) < options.maxDepth else {
                    throw PropertyListErrors.tooDeep(options.maxDepth, offset: tagStart)
                }
                if selfClosing {
                    let empty: PropertyListValue = name == "array" ? .array([]) : .dictionary(PropertyListDictionary())
                    try deliver(empty, to: &stack, result: &result, at: tagStart)
                } else {
                    try checkSlot(in: stack, at: tagStart)
                    stack.append(name == "array" ? .array([]) : .dictionary([], pendingKey: nil))
                }
            case "key":
                guard case .dictionary(let entries, nil)? = stack.last else {
                    throw error("<key> may appear only in a <dict>, before each value", at: tagStart)
                }
                let key = selfClosing ? "" : try readContent(of: name)
                stack[stack.count - 1] = .dictionary(entries, pendingKey: key)
            case "true", "false", "string", "integer", "real", "date", "data":
                let content = selfClosing ? "" : try readContent(of: name)
                let value = try leaf(name, content, at: tagStart)
                try deliver(value, to: &stack, result: &result, at: tagStart)
            default:
                throw error("<\(name)> is not a property list element", at: tagStart)
            }
        } while !stack.isEmpty
        try skipMisc()
        guard position == text.count else { throw error("content follows the property list's root element") }
        guard let result else { throw error("the document holds no value") }
        return result
    }

    /// Fails when the innermost open element cannot take a value now.
    private func checkSlot(in stack: [Frame], at offset: Int) throws(SerializationError) {
        switch stack.last {
        case .plist(let value?)?:
            _ = value
            throw error("<plist> holds more than one value", at: offset)
        case .dictionary(_, nil)?:
            throw error("a value in a <dict> has no <key> before it", at: offset)
        default:
            return
        }
    }

    private mutating func deliver(
        _ value: PropertyListValue, to stack: inout [Frame], result: inout PropertyListValue?, at offset: Int
    ) throws(SerializationError) {
        objectCount += 1
        guard objectCount <= options.maxObjects else {
            throw PropertyListErrors.tooManyObjects(options.maxObjects, offset: offset)
        }
        guard let top = stack.popLast() else {
            guard result == nil else { throw error("the document holds more than one root value", at: offset) }
            result = value
            return
        }
        switch top {
        case .plist(nil):
            stack.append(.plist(value: value))
        case .plist:
            throw error("<plist> holds more than one value", at: offset)
        case .array(var values):
            values.append(value)
            stack.append(.array(values))
        case .dictionary(var entries, let key?):
            entries.append((key, value))
            stack.append(.dictionary(entries, pendingKey: nil))
        case .dictionary(_, nil):
            throw error("a value in a <dict> has no <key> before it", at: offset)
        }
    }

    private func leaf(_ name: String, _ content: String, at offset: Int) throws(SerializationError) -> PropertyListValue
    {
        let trimmed = content.trimmingXMLSpace()
        switch name {
        case "true", "false":
            guard content.isEmpty else { throw error("<\(name)> must be empty", at: offset) }
            return .bool(name == "true")
        case "string":
            return .string(content)
        case "integer":
            guard let integer = PropertyListNumbers.integer(trimmed) else {
                throw error("'\(trimmed.prefix(40))' is not an integer of at most 128 bits", at: offset)
            }
            return .integer(integer)
        case "real":
            guard let real = PropertyListNumbers.real(trimmed) else {
                throw error("'\(trimmed.prefix(40))' is not a real number", at: offset)
            }
            return .real(real)
        case "date":
            guard let date = PropertyListNumbers.date(trimmed) else {
                throw error("'\(trimmed.prefix(40))' is not a date such as 2004-10-26T10:33:33Z", at: offset)
            }
            return .date(date)
        default:
            let compact = String(content.unicodeScalars.filter { !" \t\r\n".unicodeScalars.contains($0) })
            let padded = compact + String(repeating: "=", count: (4 - compact.utf8.count % 4) % 4)
            guard let data = Data(base64Encoded: padded) else {
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

/// Number and date text as XML property lists write them.
enum PropertyListNumbers {
    /// A decimal integer (optional sign) or a `0x` hexadecimal one, within 128 signed bits.
    static func integer(_ text: String) -> PropertyListInteger? {
        var bytes = Substring(text).utf8[...]
        var negative = false
        if let first = bytes.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "+") {
            negative = first == UInt8(ascii: "-")
            bytes = bytes.dropFirst()
        }
        var radix: UInt64 = 10
        if bytes.starts(with: Array("0x".utf8)) || bytes.starts(with: Array("0X".utf8)) {
            radix = 16
            bytes = bytes.dropFirst(2)
        }
        guard !bytes.isEmpty else { return nil }
        var high: UInt64 = 0
        var low: UInt64 = 0
        for byte in bytes {
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

    /// `YYYY[-MM[-DD[THH[:MM[:SS]]]]]Z`, UTC.
    static func date(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.last == UInt8(ascii: "Z") else { return nil }
        var fields: [Int] = []
        var index = 0
        let separators: [UInt8] = [
            0, UInt8(ascii: "-"), UInt8(ascii: "-"), UInt8(ascii: "T"), UInt8(ascii: ":"),
            UInt8(ascii: ":"),
        ]
        while index < bytes.count - 1, fields.count < 6 {
            if fields.count > 0 {
                guard bytes[index] == separators[fields.count] else { return nil }
                index += 1
            }
            let width = fields.isEmpty ? 4 : 2
            guard index + width <= bytes.count - 1 else { return nil }
            var value = 0
            for byte in bytes[index..<index + width] {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            fields.append(value)
            index += width
        }
        guard index == bytes.count - 1, !fields.isEmpty else { return nil }
        while fields.count < 6 { fields.append(fields.count < 3 ? 1 : 0) }
        guard (1...12).contains(fields[1]), (1...31).contains(fields[2]), fields[3] < 24, fields[4] < 60, fields[5] < 61
        else { return nil }
        let days = PropertyListDates.days(year: fields[0], month: fields[1], day: fields[2])
        let seconds = Double(days * 86_400 + fields[3] * 3600 + fields[4] * 60 + fields[5])
        return Date(timeIntervalSince1970: seconds)
    }
}

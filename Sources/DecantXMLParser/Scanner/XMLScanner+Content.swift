import DecantBytes
import DecantCore

// The document, its prolog and epilog, and element content.
private let whitespaceFlag = XMLCharacterClass.whitespace

extension XMLScanner {
    /// Parses the whole document (§2.1 [1]).
    mutating func parseDocument() throws {
        if matches("<?xml"), let next = byte(at: 5), classes[Int(next)] & whitespaceFlag != 0 {
            try parseXMLDeclaration()
        }
        var sawDocumentType = false
        while true {
            skipWhitespace()
            guard pos < end else {
                throw failure("the document has no root element; an XML document needs exactly one, such as `<root/>`")
            }
            guard base[pos] == UInt8(ascii: "<") else {
                if base[pos] >= 0x80 || classes[Int(base[pos])] & XMLCharacterClass.invalid != 0 {
                    _ = try scanRun(from: pos, stopMask: 0xFF)
                }
                throw failure("text is not allowed before the root element\(describeNext())")
            }
            if matches("<!--") {
                try parseComment(emits: true)
            } else if matches("<?") {
                try parseProcessingInstruction(emits: true)
            } else if matches("<!DOCTYPE") {
                guard !sawDocumentType else {
                    throw failure("a document may have only one document type declaration (`<!DOCTYPE`)")
                }
                sawDocumentType = true
                try parseDocumentType()
            } else {
                break
            }
        }
        try parseStartTag()
        if !elements.isEmpty { try parseContent() }
        while true {
            skipWhitespace()
            guard pos < end else { return }
            if matches("<!--") {
                try parseComment(emits: true)
            } else if matches("<?") {
                try parseProcessingInstruction(emits: true)
            } else if base[pos] == UInt8(ascii: "<") {
                throw failure(
                    "the document has content after the root element; an XML document has exactly one root element, "
                        + "so wrap these elements in one")
            } else {
                if base[pos] >= 0x80 || classes[Int(base[pos])] & XMLCharacterClass.invalid != 0 {
                    _ = try scanRun(from: pos, stopMask: 0xFF)
                }
                throw failure("text is not allowed after the root element\(describeNext())")
            }
        }
    }

    /// Parses the content of the root element until its end tag.
    mutating func parseContent() throws {
        while true {
            guard pos < end else {
                if frames.isEmpty {
                    let open = elements.last!
                    throw failure(
                        "the document ends before the end tag of `<\(open.name.qualifiedName)>` opened at "
                            + "\(position(ofMainOffset: open.offset)); add `</\(open.name.qualifiedName)>`")
                }
                let frame = frames.last!
                if elements.count != frame.elementDepth {
                    let open = elements.last!
                    throw failure(
                        "the element `<\(open.name.qualifiedName)>` starts in the replacement text of the entity "
                            + "`&\(frame.name);` but does not end there (XML 1.0 §4.3.2, WFC: Parsed Entity)")
                }
                popEntity()
                continue
            }
            let byte = base[pos]
            if byte == UInt8(ascii: "<") {
                let next = pos + 1 < end ? base[pos + 1] : 0
                if next == UInt8(ascii: "/") {
                    try flushText()
                    try parseEndTag()
                    if elements.isEmpty { return }
                } else if next == UInt8(ascii: "!") {
                    try flushText()
                    if matches("<!--") {
                        try parseComment(emits: true)
                    } else if matches("<![CDATA[") {
                        try parseCDATA()
                    } else {
                        throw failure(
                            "`<!` in content must start a comment `<!--` or a CDATA section `<![CDATA[`; write `&lt;!` "
                                + "for literal text")
                    }
                } else if next == UInt8(ascii: "?") {
                    try flushText()
                    try parseProcessingInstruction(emits: true)
                } else {
                    try flushText()
                    try parseStartTag()
                }
            } else if byte == UInt8(ascii: "&") {
                try parseReferenceInContent()
            } else {
                try scanText()
            }
        }
    }

    /// Whether character data is pending (in ``textSpan`` or ``text``).
    var hasPendingText: Bool { textSpan != nil || !text.isEmpty }

    /// How many bytes of character data are pending.
    var pendingTextCount: Int { textSpanCount + text.count }

    /// Copies the pending piece read in place into ``text``.
    mutating func copyTextSpan() {
        guard let span = textSpan else { return }
        text.append(contentsOf: UnsafeBufferPointer(start: span, count: textSpanCount))
        textSpan = nil
        textSpanCount = 0
    }

    /// Appends bytes to the pending character data, checking the text limit first: read in place when they start a
    /// run in the document, copied otherwise.
    @inline(__always)
    mutating func appendText(_ start: UnsafePointer<UInt8>, count: Int) throws {
        let pending = hasPendingText
        if !pending { textStart = mainOffset }
        guard pendingTextCount + count <= options.maxTextLength else {
            throw limit("a run of character data is longer than \(options.maxTextLength) bytes", "maxTextLength")
        }
        if !pending && frames.isEmpty {
            textSpan = start
            textSpanCount = count
            return
        }
        copyTextSpan()
        text.append(contentsOf: UnsafeBufferPointer(start: start, count: count))
    }

    /// Appends one byte to the pending character data, checking the text limit first.
    @inline(__always)
    mutating func appendTextByte(_ byte: UInt8) throws {
        if !hasPendingText { textStart = mainOffset }
        guard pendingTextCount < options.maxTextLength else {
            throw limit("a run of character data is longer than \(options.maxTextLength) bytes", "maxTextLength")
        }
        copyTextSpan()
        text.append(byte)
    }

    /// Reports the pending character data as one event: the span of the document it was read from when it is one
    /// piece written as is, else the bytes gathered in ``text``.
    @inline(__always)
    mutating func flushText() throws {
        if let span = textSpan, text.isEmpty {
            textSpan = nil
            let count = textSpanCount
            textSpanCount = 0
            try emit(.characters(UnsafeBufferPointer(start: span, count: count)), bytes: count, at: textStart)
            return
        }
        copyTextSpan()
        guard !text.isEmpty else { return }
        try emitGathered(fromText: true, at: textStart) { .characters($0) }
    }

    /// Scans character data up to the next `<` or `&`.
    mutating func scanText() throws {
        let start = pos
        let stop = try scanRun(from: pos, stopMask: XMLCharacterClass.textStop)
        if stop > start { try appendText(base + start, count: stop - start) }
        pos = stop
        guard stop < end else { return }
        switch base[stop] {
        case UInt8(ascii: "<"), UInt8(ascii: "&"):
            return
        case 0x0D:
            try appendTextByte(consumeLineEnd())
        case UInt8(ascii: "]"):
            if stop + 2 < end, base[stop + 1] == UInt8(ascii: "]"), base[stop + 2] == UInt8(ascii: ">") {
                throw failure("`]]>` is not allowed in character data; write `]]&gt;`", at: stop)
            }
            try appendTextByte(UInt8(ascii: "]"))
            pos += 1
        default:
            throw invalidCharacter(at: stop)
        }
    }

    /// Parses `&...;` in content: a character reference, a predefined entity, or a general entity to expand.
    mutating func parseReferenceInContent() throws {
        let referenceStart = pos
        pos += 1
        if pos < end, base[pos] == UInt8(ascii: "#") {
            let scalar = try parseCharacterReference()
            if !hasPendingText { textStart = frames.isEmpty ? referenceStart : mainOffset }
            guard pendingTextCount + 4 <= options.maxTextLength else {
                throw limit("a run of character data is longer than \(options.maxTextLength) bytes", "maxTextLength")
            }
            copyTextSpan()
            XMLCharacterClass.appendUTF8(scalar, to: &text)
            return
        }
        guard let nameRange = try scanName() else {
            throw failure(
                "`&` must start an entity reference such as `&amp;` or a character reference such as `&#38;`; write "
                    + "`&amp;` for a literal ampersand",
                at: referenceStart)
        }
        guard pos < end, base[pos] == UInt8(ascii: ";") else {
            throw failure("the entity reference `&\(string(nameRange))` must end with `;`\(describeNext())")
        }
        pos += 1
        if let byte = predefinedEntity(nameRange) {
            if !hasPendingText { textStart = frames.isEmpty ? referenceStart : mainOffset }
            try appendTextByte(byte)
            return
        }
        let name = string(nameRange)
        guard let entity = generalEntities[name] else {
            if entitiesMustBeDeclared {
                throw failure(
                    "the entity `&\(name);` is not declared; declare it in the document type declaration's internal "
                        + "subset, or write `&amp;\(name);` for literal text (XML 1.0 §4.1, WFC: Entity Declared)",
                    at: referenceStart)
            }
            try flushText()
            try sink.skippedEntity(name, at: frames.isEmpty ? referenceStart : mainOffset)
            return
        }
        if entity.isUnparsed {
            throw failure(
                "the unparsed entity `&\(name);` (declared with NDATA) cannot be referenced in content (XML 1.0 §4.1, "
                    + "WFC: Parsed Entity)",
                at: referenceStart)
        }
        guard let replacement = entity.replacement else {
            // An external parsed entity: never fetched, reported as skipped.
            try flushText()
            try sink.skippedEntity(name, at: frames.isEmpty ? referenceStart : mainOffset)
            return
        }
        try pushEntity(name, replacement: replacement, isParameter: false, referenceOffset: referenceStart)
    }

    // MARK: - Tags

    /// Parses a start tag or empty-element tag (§3.1 [40], [44]); the position is on `<`.
    mutating func parseStartTag() throws {
        let tagOffset = mainOffset
        pos += 1
        guard let nameRange = try scanName() else {
            if pos < end, base[pos] >= 0x80, XMLCharacterClass.decode(base, pos, end) == nil {
                throw invalidCharacter(at: pos)
            }
            throw failure(
                "`<` must start a tag, a comment or a processing instruction\(describeNext()); write `&lt;` for a "
                    + "literal less-than sign")
        }
        let (qualifiedName, nameSlot) = try self.qualifiedName(nameRange, "element name")
        let nameInsertions = names.insertions
        rawAttributes.removeAllKeepingCapacity()
        rawDeclarationCount = 0
        var isEmpty = false
        while true {
            let hadSpace = skipWhitespace()
            guard pos < end else {
                throw failure("the start tag `<\(qualifiedName)` is not closed; end it with `>` or `/>`")
            }
            let byte = base[pos]
            if byte == UInt8(ascii: ">") {
                pos += 1
                break
            }
            if byte == UInt8(ascii: "/") {
                guard pos + 1 < end, base[pos + 1] == UInt8(ascii: ">") else {
                    throw failure("expected `/>` to end the empty-element tag `<\(qualifiedName)`")
                }
                pos += 2
                isEmpty = true
                break
            }
            guard hadSpace else {
                throw failure(
                    "expected white space, `>` or `/>` in the start tag `<\(qualifiedName)`\(describeNext())")
            }
            guard let attributeRange = try scanName() else {
                throw failure(
                    "expected an attribute name, `>` or `/>` in the start tag `<\(qualifiedName)`\(describeNext())")
            }
            let (attributeName, attributeSlot) = try self.qualifiedName(attributeRange, "attribute name")
            skipWhitespace()
            guard pos < end, base[pos] == UInt8(ascii: "=") else {
                throw failure(
                    "the attribute `\(attributeName)` of `<\(qualifiedName)>` needs `=` and a quoted value, such as "
                        + "`\(attributeName)=\"...\"`\(describeNext())")
            }
            pos += 1
            skipWhitespace()
            guard pos < end, base[pos] == UInt8(ascii: "\"") || base[pos] == UInt8(ascii: "'") else {
                throw failure(
                    "the value of the attribute `\(attributeName)` of `<\(qualifiedName)>` must be in quotes"
                        + describeNext())
            }
            let value = try parseAttributeValue()
            guard rawAttributes.count < options.maxAttributesPerElement else {
                throw limit(
                    "the start tag `<\(qualifiedName)>` has more than \(options.maxAttributesPerElement) attributes",
                    "maxAttributesPerElement")
            }
            if isRepeatedAttribute(attributeName, slot: attributeSlot) {
                throw failure(
                    "the attribute `\(attributeName)` appears twice in the start tag `<\(qualifiedName)>` (XML 1.0 §3.1, "
                        + "WFC: Unique Att Spec)",
                    at: attributeRange.lowerBound)
            }
            let declares = declaresNamespace(attributeRange)
            if declares { rawDeclarationCount += 1 }
            rawAttributes.append(
                RawAttribute(
                    name: attributeName, value: value, insertions: names.insertions, slot: Int32(attributeSlot),
                    isSpecified: true, declaresNamespace: declares))
        }
        if !attributeDeclarations.isEmpty, let list = attributeDeclarations[qualifiedName] {
            try applyAttributeDeclarations(list, element: qualifiedName)
        }
        guard elements.count < options.maxDepth else {
            throw limit("elements are nested more than \(options.maxDepth) deep", "maxDepth")
        }
        var start: XMLElementStart
        let namespaceCount: Int
        if namespaceAware {
            do {
                (start, namespaceCount) = try resolveNamespaces(
                    qualifiedName, slot: nameSlot, insertions: nameInsertions, isEmpty: isEmpty)
            } catch var failure as XMLFailure {
                // Point at the tag, not past it.
                if frames.isEmpty { failure.offset = tagOffset }
                throw failure
            }
        } else {
            var attributes = takeReportedAttributes()
            // By index, the value moved (as in ``resolveNamespaces(_:slot:insertions:isEmpty:)``).
            for index in rawAttributes.indices {
                let name = plainName(
                    rawAttributes[index].name, slot: Int(rawAttributes[index].slot),
                    insertions: rawAttributes[index].insertions, isElement: false)
                var value = ""
                swap(&value, &rawAttributes[index].value)
                attributes.append(XMLAttribute(name: name, value: value, isSpecified: rawAttributes[index].isSpecified))
            }
            start = XMLElementStart(
                name: plainName(qualifiedName, slot: nameSlot, insertions: nameInsertions, isElement: true),
                attributes: attributes,
                isEmptyElementTag: isEmpty)
            namespaceCount = 0
        }
        try emitStart(&start, at: tagOffset)
        // The attribute array goes back to be reused by the next tag (moved, not copied, so that it stays unique).
        swap(&reportedAttributes, &start.attributes)
        if isEmpty {
            popNamespaceBindings(namespaceCount)
            try emitEnd(start.name, at: tagOffset)
        } else {
            elements.append(OpenElement(name: start.name, offset: tagOffset, namespaceCount: namespaceCount))
        }
    }

    /// Whether the start tag being read already has an attribute named `name` (called once per attribute, before it
    /// is appended to ``rawAttributes``). A linear search for the few attributes most tags have; from 16 on, a set,
    /// since searching for each of up to ``XMLParsingOptions/maxAttributesPerElement`` attributes was quadratic.
    /// `slot` is the name's slot in ``names``: the same bytes always hash to the same pair of slots, so two names in
    /// different pairs differ without comparing them (one name can be in either slot of its pair: an insertion moves
    /// the name in the first to the second).
    mutating func isRepeatedAttribute(_ name: String, slot: Int) -> Bool {
        let count = rawAttributes.count
        if count < 16 {
            for index in 0..<count {
                let other = Int(rawAttributes[index].slot)
                if slot >= 0, other >= 0, other >> 1 != slot >> 1 { continue }
                if rawAttributes[index].name == name { return true }
            }
            return false
        }
        if count == 16 {
            rawAttributeNames.removeAll(keepingCapacity: true)
            for attribute in rawAttributes { rawAttributeNames.insert(attribute.name) }
        }
        return !rawAttributeNames.insert(name).inserted
    }

    /// Normalizes the attributes an ATTLIST types (other than CDATA) and adds defaulted ones, at a cost that follows
    /// the tag's attributes and the defaults it receives, not the number of declarations. Each default applied counts
    /// its entity replacement text against the expansion budget again.
    mutating func applyAttributeDeclarations(_ list: AttributeList, element: String) throws {
        if list.hasTokenTypes {
            for index in rawAttributes.indices {
                if let declared = list.indexes[rawAttributes[index].name], !list.declarations[declared].isCDATA {
                    rawAttributes[index].value = XMLScanner.collapseSpaces(rawAttributes[index].value)
                }
            }
        }
        guard !list.defaulted.isEmpty else { return }
        var present = Set(rawAttributes.map(\.name))
        for declared in list.defaulted {
            let declaration = list.declarations[declared]
            guard let value = declaration.defaultValue, present.insert(declaration.name).inserted else { continue }
            guard rawAttributes.count < options.maxAttributesPerElement else {
                throw limit(
                    "the start tag `<\(element)>` has more than \(options.maxAttributesPerElement) attributes",
                    "maxAttributesPerElement")
            }
            if declaration.defaultExpansion > 0 {
                // The default holds entity replacement text: applying it reads that text again, as a reference
                // written in this start tag would (an `<!ATTLIST>` default is otherwise an unbounded multiplier).
                try countExpansion(
                    declaration.defaultExpansion,
                    "applying the default value of the attribute `\(declaration.name)` to `<\(element)>` (it holds "
                        + "\(declaration.defaultExpansion) bytes of entity replacement text)")
            }
            let declares = Self.declaresNamespace(declaration.name)
            if declares { rawDeclarationCount += 1 }
            rawAttributes.append(
                RawAttribute(
                    name: declaration.name, value: value, insertions: 0, slot: -1, isSpecified: false,
                    declaresNamespace: declares))
        }
    }

    /// Trims spaces and collapses runs of them (§3.3.3, for attributes declared with a type other than CDATA).
    static func collapseSpaces(_ value: String) -> String {
        guard value.utf8.contains(UInt8(ascii: " ")) else { return value }
        return value.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
    }

    /// Parses an end tag (§3.1 [42]); the position is on `<`.
    mutating func parseEndTag() throws {
        let tagOffset = pos
        pos += 2
        guard let nameRange = try scanName() else {
            throw failure("expected an element name after `</`\(describeNext())")
        }
        skipWhitespace()
        guard pos < end, base[pos] == UInt8(ascii: ">") else {
            throw failure("the end tag `</\(string(nameRange))` must end with `>`\(describeNext())")
        }
        pos += 1
        // Moved out of the stack rather than copied (a copy retains every string of its name); a failure below ends
        // the parse, so the stack need not be restored.
        guard !elements.isEmpty else {
            throw failure("the end tag `</\(string(nameRange))>` has no start tag", at: tagOffset)
        }
        let open = elements.removeLast()
        let expected = open.name.qualifiedName
        let written = UnsafeBufferPointer(start: base + nameRange.lowerBound, count: nameRange.count)
        let same =
            expected.utf8.withContiguousStorageIfAvailable { stored in
                stored.count == written.count
                    && (stored.isEmpty || ByteRun.equal(stored.baseAddress!, written.baseAddress!, count: stored.count))
            } ?? expected.utf8.elementsEqual(written)
        if !same {
            throw failure(
                "the end tag `</\(string(nameRange))>` does not match the start tag `<\(expected)>` opened at "
                    + "\(position(ofMainOffset: open.offset)); close `<\(expected)>` first with `</\(expected)>` (XML 1.0 §3, WFC: Element "
                    + "Type Match)",
                at: tagOffset)
        }
        if let frame = frames.last, elements.count < frame.elementDepth {
            throw failure(
                "the end tag `</\(expected)>` in the replacement text of the entity `&\(frame.name);` closes an "
                    + "element that started outside it (XML 1.0 §4.3.2, WFC: Parsed Entity)")
        }
        popNamespaceBindings(open.namespaceCount)
        try emitEnd(open.name, at: frames.isEmpty ? tagOffset : mainOffset)
    }

    // MARK: - Attribute values

    /// Parses a quoted attribute value (§2.3 [10]) and normalizes it (§3.3.3, as CDATA); the position is on the
    /// opening quote.
    mutating func parseAttributeValue() throws -> String {
        let quote = base[pos]
        pos += 1
        let start = pos
        let stop = try scanRun(from: start, stopMask: XMLCharacterClass.attributeStop)
        guard stop < end else { throw failure("an attribute value is not closed; end it with \(quoteName(quote))") }
        if base[stop] == quote {
            guard stop - start <= options.maxAttributeValueLength else {
                throw limit(
                    "an attribute value is longer than \(options.maxAttributeValueLength) bytes",
                    "maxAttributeValueLength")
            }
            pos = stop + 1
            return string(start..<stop)
        }
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: UnsafeBufferPointer(start: base + start, count: stop - start))
        pos = stop
        let baseFrame = frames.count
        while true {
            guard pos < end else {
                if frames.count > baseFrame {
                    popEntity()
                    continue
                }
                throw failure("an attribute value is not closed; end it with \(quoteName(quote))")
            }
            let byte = base[pos]
            switch byte {
            case quote where frames.count == baseFrame:
                pos += 1
                return String(decoding: scratch, as: UTF8.self)
            case UInt8(ascii: "<"):
                if frames.count > baseFrame {
                    throw failure(
                        "the replacement text of the entity `&\(frames.last!.name);` contains `<`, and it is used in "
                            + "an attribute value (XML 1.0 §3.1, WFC: No < in Attribute Values)")
                }
                throw failure("`<` is not allowed in attribute values; write `&lt;` (XML 1.0 §3.1)")
            case UInt8(ascii: "&"):
                try parseReferenceInAttribute()
            case 0x09, 0x0A:
                scratch.append(0x20)
                pos += 1
            case 0x0D:
                _ = consumeLineEnd()
                scratch.append(0x20)
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                scratch.append(byte)
                pos += 1
            default:
                let runEnd = try scanRun(from: pos, stopMask: XMLCharacterClass.attributeStop)
                if runEnd == pos { throw invalidCharacter(at: pos) }
                scratch.append(contentsOf: UnsafeBufferPointer(start: base + pos, count: runEnd - pos))
                pos = runEnd
            }
            guard scratch.count <= options.maxAttributeValueLength else {
                throw limit(
                    "an attribute value is longer than \(options.maxAttributeValueLength) bytes",
                    "maxAttributeValueLength")
            }
        }
    }

    func quoteName(_ quote: UInt8) -> String { quote == UInt8(ascii: "\"") ? "`\"`" : "`'`" }

    /// Parses a reference inside an attribute value into ``scratch``, pushing general entities.
    mutating func parseReferenceInAttribute() throws {
        let referenceStart = pos
        pos += 1
        if pos < end, base[pos] == UInt8(ascii: "#") {
            XMLCharacterClass.appendUTF8(try parseCharacterReference(), to: &scratch)
            return
        }
        guard let nameRange = try scanName(), pos < end, base[pos] == UInt8(ascii: ";") else {
            throw failure(
                "`&` in an attribute value must start a reference such as `&amp;` or `&#38;`; write `&amp;` for a "
                    + "literal ampersand",
                at: referenceStart)
        }
        pos += 1
        if let byte = predefinedEntity(nameRange) {
            scratch.append(byte)
            return
        }
        let name = string(nameRange)
        guard let entity = generalEntities[name] else {
            if entitiesMustBeDeclared {
                throw failure(
                    "the entity `&\(name);` is not declared; declare it in the internal subset, or write "
                        + "`&amp;\(name);` (XML 1.0 §4.1, WFC: Entity Declared)",
                    at: referenceStart)
            }
            return
        }
        guard let replacement = entity.replacement, !entity.isUnparsed else {
            throw failure(
                "the attribute value refers to the external entity `&\(name);`, which attribute values cannot do "
                    + "(XML 1.0 §3.1, WFC: No External Entity References)",
                at: referenceStart)
        }
        try pushEntity(name, replacement: replacement, isParameter: false, referenceOffset: referenceStart)
    }

    // MARK: - Namespaces

    static var xmlNamespace: String { "http://www.w3.org/XML/1998/namespace" }
    static var xmlnsNamespace: String { "http://www.w3.org/2000/xmlns/" }

    /// Splits names, binds namespaces (Namespaces in XML 1.0 §3–§6) and builds the start event; returns it and the
    /// number of bindings pushed.
    mutating func resolveNamespaces(
        _ qualifiedName: String, slot: Int, insertions: Int, isEmpty: Bool
    ) throws -> (XMLElementStart, Int) {
        // Only a tag that declares some reads its attributes for them (a loop over the attributes copies each one).
        let declarations = rawDeclarationCount > 0 ? try namespaceDeclarations() : []
        let attributeCount = rawAttributes.count - rawDeclarationCount
        for declaration in declarations { pushNamespaceBinding(prefix: declaration.prefix, uri: declaration.uri) }
        let elementName = try resolve(qualifiedName, isElement: true, slot: slot, insertions: insertions)
        var attributes = takeReportedAttributes()
        if attributeCount > 0 {
            attributes.reserveCapacity(attributeCount)
            var prefixed = 0
            // By index, reading the fields in place (a loop over the elements copied each one).
            for index in rawAttributes.indices where !rawAttributes[index].declaresNamespace {
                let name = try resolve(
                    rawAttributes[index].name, isElement: false, slot: Int(rawAttributes[index].slot),
                    insertions: rawAttributes[index].insertions)
                if name.prefix != nil { prefixed += 1 }
                // The value is moved, not copied: the raw attribute is not read again.
                var value = ""
                swap(&value, &rawAttributes[index].value)
                attributes.append(XMLAttribute(name: name, value: value, isSpecified: rawAttributes[index].isSpecified))
            }
            if prefixed > 1 {
                // Prefixed attributes by namespace and local name: a set, since comparing each with every earlier one
                // was quadratic in the attributes of a tag.
                var expandedNames: [[String?]: String] = [:]
                for attribute in attributes where attribute.name.prefix != nil {
                    let name = attribute.name
                    let key = [name.localName, name.namespaceURI]
                    if let other = expandedNames.updateValue(name.qualifiedName, forKey: key) {
                        throw failure(
                            "the attributes `\(other)` and `\(name.qualifiedName)` of `<\(qualifiedName)>` have the same "
                                + "namespace and local name (Namespaces in XML §6.3)")
                    }
                }
            }
        }
        let start = XMLElementStart(
            name: elementName, attributes: attributes, namespaceDeclarations: declarations, isEmptyElementTag: isEmpty)
        return (start, declarations.count)
    }

    /// The namespace declarations among ``rawAttributes``, checked (Namespaces in XML §3).
    func namespaceDeclarations() throws -> [XMLNamespaceDeclaration] {
        var declarations: [XMLNamespaceDeclaration] = []
        for attribute in rawAttributes where attribute.declaresNamespace {
            let name = attribute.name
            if name == "xmlns" {
                if attribute.value == XMLScanner.xmlNamespace || attribute.value == XMLScanner.xmlnsNamespace {
                    throw failure(
                        "the default namespace cannot be `\(attribute.value)` (Namespaces in XML §3, Reserved "
                            + "Prefixes and Namespace Names)")
                }
                declarations.append(XMLNamespaceDeclaration(prefix: nil, uri: attribute.value))
            } else {
                let prefix = String(name.dropFirst(6))
                if prefix == "xmlns" {
                    throw failure("the prefix `xmlns` must not be declared (Namespaces in XML §3)")
                }
                if prefix == "xml" {
                    guard attribute.value == XMLScanner.xmlNamespace else {
                        throw failure(
                            "the prefix `xml` can only be bound to `\(XMLScanner.xmlNamespace)` (Namespaces in XML §3)")
                    }
                } else if attribute.value == XMLScanner.xmlNamespace || attribute.value == XMLScanner.xmlnsNamespace {
                    throw failure(
                        "the prefix `\(prefix)` cannot be bound to the reserved namespace `\(attribute.value)` "
                            + "(Namespaces in XML §3)")
                }
                if attribute.value.isEmpty {
                    throw failure(
                        "the prefix `\(prefix)` is bound to an empty namespace name, which Namespaces in XML 1.0 does "
                            + "not allow (only the default namespace can be undeclared with `xmlns=\"\"`)")
                }
                declarations.append(XMLNamespaceDeclaration(prefix: prefix, uri: attribute.value))
            }
        }
        return declarations
    }

    /// The attribute array of the last start tag reported, emptied with its storage kept (see
    /// ``reportedAttributes``).
    @inline(__always)
    mutating func takeReportedAttributes() -> [XMLAttribute] {
        var attributes: [XMLAttribute] = []
        swap(&attributes, &reportedAttributes)
        // Emptied only when it holds attributes, but taken either way: an empty array keeps the storage of the last
        // tag that had some.
        if !attributes.isEmpty { attributes.removeAllKeepingCapacity() }
        return attributes
    }

    /// A name when the parser is not namespace-aware (the whole name is the local name): from ``names`` when `slot`
    /// still holds it, so that every occurrence of a name shares one.
    mutating func plainName(_ qualifiedName: String, slot: Int, insertions: Int, isElement: Bool) -> XMLName {
        let held = holds(slot, qualifiedName, insertions: insertions)
        if held, let cached = names.resolved(at: slot, isElement: isElement) { return cached }
        let name = XMLName(qualifiedName: qualifiedName)
        if held { names.setResolved(name, at: slot, isElement: isElement) }
        return name
    }

    /// Splits and binds one name: from ``names`` when `slot` still holds it and it was resolved since the bindings in
    /// scope last changed.
    mutating func resolve(_ qualifiedName: String, isElement: Bool, slot: Int, insertions: Int) throws -> XMLName {
        let held = holds(slot, qualifiedName, insertions: insertions)
        if held, let cached = names.resolved(at: slot, isElement: isElement) { return cached }
        let name = try resolveAgain(qualifiedName, isElement: isElement)
        if held { names.setResolved(name, at: slot, isElement: isElement) }
        return name
    }

    /// Whether `slot` of ``names`` still holds `qualifiedName`, read when the cache had made `insertions`
    /// insertions: surely while it has made no other since (no string compared), else if the names are the same.
    @inline(__always)
    func holds(_ slot: Int, _ qualifiedName: String, insertions: Int) -> Bool {
        slot >= 0 && (insertions == names.insertions || names.qualifiedName(at: slot) == qualifiedName)
    }

    /// Whether an attribute name, as UTF-8, declares a namespace: `xmlns`, or `xmlns:` and a prefix.
    @inline(__always)
    static func declaresNamespace(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        let count = name.count
        guard count == 5 || (count > 6 && name[5] == UInt8(ascii: ":")) else { return false }
        return name[0] == UInt8(ascii: "x") && name[1] == UInt8(ascii: "m") && name[2] == UInt8(ascii: "l")
            && name[3] == UInt8(ascii: "n") && name[4] == UInt8(ascii: "s")
    }

    /// Whether the attribute name at `range` of the current input declares a namespace (the rule above).
    @inline(__always)
    func declaresNamespace(_ range: Range<Int>) -> Bool {
        Self.declaresNamespace(UnsafeBufferPointer(start: base + range.lowerBound, count: range.count))
    }

    /// Whether an attribute name read from a declaration declares a namespace (the rule above, on its UTF-8).
    static func declaresNamespace(_ name: String) -> Bool {
        var name = name
        return name.withUTF8 { declaresNamespace($0) }
    }

    /// Splits and binds one name, with the bindings in scope.
    func resolveAgain(_ qualifiedName: String, isElement: Bool) throws -> XMLName {
        guard let colon = qualifiedName.utf8.firstIndex(of: UInt8(ascii: ":")) else {
            guard isElement else { return XMLName(qualifiedName: qualifiedName) }
            let uri = lookup(nil)
            return XMLName(qualifiedName: qualifiedName, localName: qualifiedName, namespaceURI: uri)
        }
        let prefix = String(qualifiedName[..<colon])
        let localName = String(qualifiedName[qualifiedName.utf8.index(after: colon)...])
        if prefix == "xmlns" {
            throw failure(
                "the name `\(qualifiedName)` uses the prefix `xmlns`, which is reserved for namespace declarations "
                    + "(Namespaces in XML §3)")
        }
        guard let uri = prefix == "xml" ? XMLScanner.xmlNamespace : lookup(prefix) else {
            throw failure(
                "the prefix `\(prefix)` of `\(qualifiedName)` is not bound to a namespace; declare it with "
                    + "`xmlns:\(prefix)=\"...\"` on this element or an ancestor (Namespaces in XML §5)")
        }
        return XMLName(qualifiedName: qualifiedName, prefix: prefix, localName: localName, namespaceURI: uri)
    }

    /// The namespace bound to `prefix` (`nil`: the default namespace); `nil` when unbound or undeclared.
    func lookup(_ prefix: String?) -> String? {
        guard let uri = namespaceScopes[prefix]?.last, !uri.isEmpty else { return nil }
        return uri
    }
}

extension Array {
    /// Removes every element and keeps the storage, one at a time from the end: for the few attributes a tag has,
    /// several times cheaper than `removeAll(keepingCapacity:)`, which goes through `replaceSubrange`.
    @inline(__always)
    mutating func removeAllKeepingCapacity() {
        while !isEmpty { removeLast() }
    }
}

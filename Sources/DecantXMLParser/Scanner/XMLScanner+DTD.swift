// The document type declaration and its internal subset (XML 1.0 §2.8, §3.2, §3.3, §4.2, §4.7). Nothing external is
// ever read: external subsets, external parameter entities and external general entities are recorded, not fetched.
extension XMLScanner {
    /// Parses `<!DOCTYPE ...>` (§2.8 [28]); the position is on `<!DOCTYPE`.
    mutating func parseDocumentType() throws {
        let startOffset = pos
        pos += 9
        try requireWhitespace("after `<!DOCTYPE`")
        let nameRange = try requireName("for the root element in `<!DOCTYPE`")
        if namespaceAware { try checkQName(nameRange, "document type name") }
        let name = string(nameRange)
        hasDocumentType = true
        var hadSpace = skipWhitespace()
        var publicID: String?
        var systemID: String?
        if matches("SYSTEM") || matches("PUBLIC") {
            guard hadSpace else { throw failure("expected white space before the external identifier") }
            (publicID, systemID) = try parseExternalID(systemOptional: false)
            hasExternalSubset = true
            hadSpace = skipWhitespace()
        }
        _ = hadSpace
        var internalSubset: String?
        if pos < end, base[pos] == UInt8(ascii: "[") {
            pos += 1
            let subsetStart = pos
            try parseInternalSubset()
            internalSubset = string(subsetStart..<pos)
            pos += 1
            skipWhitespace()
        }
        guard pos < end, base[pos] == UInt8(ascii: ">") else {
            throw failure("expected `>` to end the document type declaration\(describeNext())")
        }
        pos += 1
        let doctype = XMLDocumentType(
            name: name, publicID: publicID, systemID: systemID, internalSubset: internalSubset, notations: notations)
        try emit(
            .documentType(doctype), bytes: name.utf8.count + (internalSubset?.utf8.count ?? 0), at: startOffset)
    }

    /// Parses an ExternalID (§4.2.2 [75]), or with `systemOptional` also a PublicID (§4.7 [83]); the position is
    /// on `SYSTEM` or `PUBLIC`.
    mutating func parseExternalID(systemOptional: Bool) throws -> (publicID: String?, systemID: String?) {
        if matches("SYSTEM") {
            pos += 6
            try requireWhitespace("after `SYSTEM`")
            return (nil, try parseSystemLiteral())
        }
        try expect("PUBLIC", "")
        try requireWhitespace("after `PUBLIC`")
        let publicID = try parsePubidLiteral()
        let hadSpace = skipWhitespace()
        if pos < end, base[pos] == UInt8(ascii: "\"") || base[pos] == UInt8(ascii: "'") {
            guard hadSpace else { throw failure("expected white space between the public and system identifiers") }
            return (publicID, try parseSystemLiteral())
        }
        guard systemOptional else {
            throw failure("a `PUBLIC` identifier must be followed by a quoted system identifier\(describeNext())")
        }
        return (publicID, nil)
    }

    /// Parses a SystemLiteral (§2.3 [11]).
    mutating func parseSystemLiteral() throws -> String {
        guard pos < end, base[pos] == UInt8(ascii: "\"") || base[pos] == UInt8(ascii: "'") else {
            throw failure("expected a quoted system identifier\(describeNext())")
        }
        let quote = base[pos]
        pos += 1
        let start = pos
        while true {
            let stop = try scanUntil(quote, from: pos)
            pos = stop
            guard pos < end else { throw failure("a system identifier is not closed") }
            if base[pos] == quote { break }
            guard base[pos] == 0x0D else { throw invalidCharacter(at: pos) }
            pos += 1
        }
        let value = string(start..<pos)
        pos += 1
        return value
    }

    /// Parses a PubidLiteral (§2.3 [12]).
    mutating func parsePubidLiteral() throws -> String {
        guard pos < end, base[pos] == UInt8(ascii: "\"") || base[pos] == UInt8(ascii: "'") else {
            throw failure("expected a quoted public identifier\(describeNext())")
        }
        let quote = base[pos]
        pos += 1
        let start = pos
        while pos < end, base[pos] != quote {
            guard classes[Int(base[pos])] & XMLCharacterClass.pubid != 0 else {
                throw failure(
                    "a public identifier may contain only letters, digits, spaces and -'()+,./:=?;!*#@$_%\(describeNext())"
                )
            }
            pos += 1
        }
        guard pos < end else { throw failure("a public identifier is not closed") }
        let value = string(start..<pos)
        pos += 1
        return value
    }

    /// Parses the internal subset (§2.8 [28b]) up to its `]`; the position is after `[`.
    mutating func parseInternalSubset() throws {
        while true {
            guard pos < end else {
                if !frames.isEmpty {
                    popEntity()
                    continue
                }
                throw failure("the internal subset of the document type declaration is not closed with `]>`")
            }
            let byte = base[pos]
            if classes[Int(byte)] & XMLCharacterClass.whitespace != 0 {
                pos += 1
                continue
            }
            if byte == UInt8(ascii: "]") {
                guard frames.isEmpty else {
                    throw failure(
                        "the replacement text of the parameter entity `%\(frames.last!.name);` contains `]`, which "
                            + "is not a markup declaration")
                }
                return
            }
            if byte == UInt8(ascii: "%") {
                try parseParameterEntityReference()
            } else if matches("<!ELEMENT") {
                try parseElementDeclaration()
            } else if matches("<!ATTLIST") {
                try parseAttributeListDeclaration()
            } else if matches("<!ENTITY") {
                try parseEntityDeclaration()
            } else if matches("<!NOTATION") {
                try parseNotationDeclaration()
            } else if matches("<!--") {
                try parseComment(emits: false)
            } else if matches("<?") {
                try parseProcessingInstruction(emits: true)
            } else if matches("<![") {
                throw failure(
                    "conditional sections (`<![INCLUDE[` and `<![IGNORE[`) are only allowed in the external subset, "
                        + "not in the internal subset (XML 1.0 §3.4)")
            } else {
                throw failure(
                    "expected a markup declaration (`<!ELEMENT`, `<!ATTLIST`, `<!ENTITY`, `<!NOTATION`), a comment, a "
                        + "processing instruction, a parameter-entity reference or `]` in the internal subset"
                        + describeNext())
            }
        }
    }

    /// Parses `%name;` between declarations: expands an internal parameter entity, or records that one was not read.
    mutating func parseParameterEntityReference() throws {
        let referenceStart = pos
        pos += 1
        let nameRange = try requireName("after `%`")
        guard pos < end, base[pos] == UInt8(ascii: ";") else {
            throw failure("the parameter-entity reference `%\(string(nameRange))` must end with `;`\(describeNext())")
        }
        pos += 1
        sawParameterEntityReference = true
        let name = string(nameRange)
        guard let entity = parameterEntities[name], let replacement = entity.replacement else {
            // Undeclared (declared, perhaps, in the external subset) or external: not read (§4.1, §5.1).
            skippedParameterEntity = true
            return
        }
        try pushEntity(name, replacement: replacement, isParameter: true, referenceOffset: referenceStart)
    }

    /// Fails for a parameter-entity reference inside a declaration (§2.8, WFC: PEs in Internal Subset).
    func parameterReferenceInDeclaration() -> XMLFailure {
        failure(
            "parameter-entity references are not allowed inside markup declarations in the internal subset, only "
                + "between them (XML 1.0 §2.8, WFC: PEs in Internal Subset)")
    }

    /// Skips white space inside a declaration and requires some.
    mutating func requireDeclarationSpace(_ context: @autoclosure () -> String) throws {
        if !skipWhitespace() {
            if pos < end, base[pos] == UInt8(ascii: "%") { throw parameterReferenceInDeclaration() }
            throw failure("expected white space \(context())\(describeNext())")
        }
        if pos < end, base[pos] == UInt8(ascii: "%") { throw parameterReferenceInDeclaration() }
    }

    mutating func requireDeclarationName(_ context: @autoclosure () -> String) throws -> Range<Int> {
        if pos < end, base[pos] == UInt8(ascii: "%") { throw parameterReferenceInDeclaration() }
        return try requireName(context())
    }

    /// Ends a declaration: `S? >`.
    mutating func endDeclaration(_ kind: String) throws {
        skipWhitespace()
        guard pos < end, base[pos] == UInt8(ascii: ">") else {
            if pos < end, base[pos] == UInt8(ascii: "%") { throw parameterReferenceInDeclaration() }
            throw failure("expected `>` to end the `<!\(kind)` declaration\(describeNext())")
        }
        pos += 1
    }

    // MARK: - ELEMENT

    /// Parses `<!ELEMENT name contentspec>` (§3.2 [45]).
    mutating func parseElementDeclaration() throws {
        pos += 9
        try requireDeclarationSpace("after `<!ELEMENT`")
        let nameRange = try requireDeclarationName("in `<!ELEMENT`")
        if namespaceAware { try checkQName(nameRange, "element type name") }
        try requireDeclarationSpace("after the element type name in `<!ELEMENT`")
        if matches("EMPTY") {
            pos += 5
        } else if matches("ANY") {
            pos += 3
        } else if pos < end, base[pos] == UInt8(ascii: "(") {
            try parseContentModel()
        } else {
            throw failure("expected `EMPTY`, `ANY` or a content model in parentheses\(describeNext())")
        }
        try endDeclaration("ELEMENT")
    }

    /// Parses Mixed (§3.2.2 [51]) or children (§3.2.1 [47]); the position is on `(`.
    mutating func parseContentModel() throws {
        pos += 1
        skipWhitespace()
        if matches("#PCDATA") {
            pos += 7
            skipWhitespace()
            if pos < end, base[pos] == UInt8(ascii: ")") {
                pos += 1
                if pos < end, base[pos] == UInt8(ascii: "*") { pos += 1 }
                return
            }
            while true {
                skipWhitespace()
                guard pos < end else { throw failure("a mixed content model is not closed") }
                if base[pos] == UInt8(ascii: ")") {
                    pos += 1
                    guard pos < end, base[pos] == UInt8(ascii: "*") else {
                        throw failure("a mixed content model with element names must end with `)*`")
                    }
                    pos += 1
                    return
                }
                guard base[pos] == UInt8(ascii: "|") else {
                    throw failure("expected `|` or `)` in a mixed content model\(describeNext())")
                }
                pos += 1
                skipWhitespace()
                let nameRange = try requireDeclarationName("in a mixed content model")
                if namespaceAware { try checkQName(nameRange, "element type name") }
            }
        }
        // children: an explicit stack of the separator each open group uses (0 until known).
        var separators: [UInt8] = [0]
        while true {
            // A content particle.
            skipWhitespace()
            guard pos < end else { throw failure("a content model is not closed") }
            if base[pos] == UInt8(ascii: "(") {
                guard separators.count < options.maxDepth else {
                    throw limit(
                        "a content model nests groups more than \(options.maxDepth) deep", "maxDepth")
                }
                pos += 1
                separators.append(0)
                continue
            }
            let nameRange = try requireDeclarationName("in a content model")
            if namespaceAware { try checkQName(nameRange, "element type name") }
            skipOccurrence()
            // What follows a particle: `)`, `|` or `,`.
            while true {
                skipWhitespace()
                guard pos < end else { throw failure("a content model is not closed") }
                let byte = base[pos]
                if byte == UInt8(ascii: ")") {
                    pos += 1
                    separators.removeLast()
                    skipOccurrence()
                    if separators.isEmpty { return }
                    continue
                }
                if byte == UInt8(ascii: "|") || byte == UInt8(ascii: ",") {
                    let current = separators[separators.count - 1]
                    guard current == 0 || current == byte else {
                        throw failure(
                            "a content model group mixes `|` and `,`; use parentheses to group the choice or the "
                                + "sequence (XML 1.0 §3.2.1)")
                    }
                    separators[separators.count - 1] = byte
                    pos += 1
                    break
                }
                throw failure("expected `)`, `|` or `,` in a content model\(describeNext())")
            }
        }
    }

    mutating func skipOccurrence() {
        if pos < end, base[pos] == UInt8(ascii: "?") || base[pos] == UInt8(ascii: "*") || base[pos] == UInt8(ascii: "+")
        {
            pos += 1
        }
    }

    // MARK: - ATTLIST

    /// Parses `<!ATTLIST element AttDef*>` (§3.3 [52]).
    mutating func parseAttributeListDeclaration() throws {
        pos += 9
        try requireDeclarationSpace("after `<!ATTLIST`")
        let elementRange = try requireDeclarationName("in `<!ATTLIST`")
        if namespaceAware { try checkQName(elementRange, "element type name") }
        let element = string(elementRange)
        let processes = processesDeclarations
        while true {
            let hadSpace = skipWhitespace()
            guard pos < end else { throw failure("an `<!ATTLIST` declaration is not closed") }
            if base[pos] == UInt8(ascii: ">") {
                pos += 1
                if processes, attributeDeclarations[element] == nil { attributeDeclarations[element] = AttributeList() }
                return
            }
            if base[pos] == UInt8(ascii: "%") { throw parameterReferenceInDeclaration() }
            guard hadSpace else {
                throw failure("expected white space before an attribute definition\(describeNext())")
            }
            let nameRange = try requireName("for an attribute in `<!ATTLIST \(element)`")
            if namespaceAware { try checkQName(nameRange, "attribute name") }
            let name = string(nameRange)
            try requireDeclarationSpace("after the attribute name `\(name)`")
            var isCDATA = false
            if matches("CDATA") {
                pos += 5
                isCDATA = true
            } else if matches("IDREFS") || matches("NMTOKENS") || matches("ENTITIES") {
                pos += matches("IDREFS") ? 6 : 8
            } else if matches("IDREF") || matches("ENTITY") {
                pos += matches("IDREF") ? 5 : 6
            } else if matches("ID") {
                pos += 2
            } else if matches("NMTOKEN") {
                pos += 7
            } else if matches("NOTATION") {
                pos += 8
                try requireDeclarationSpace("after `NOTATION`")
                try parseEnumeration(names: true)
            } else if pos < end, base[pos] == UInt8(ascii: "(") {
                try parseEnumeration(names: false)
            } else {
                throw failure(
                    "expected an attribute type (CDATA, ID, IDREF, IDREFS, ENTITY, ENTITIES, NMTOKEN, NMTOKENS, "
                        + "NOTATION or an enumeration) for `\(name)`\(describeNext())")
            }
            try requireDeclarationSpace("after the type of the attribute `\(name)`")
            var defaultValue: String?
            var defaultExpansion = 0
            if matches("#REQUIRED") {
                pos += 9
            } else if matches("#IMPLIED") {
                pos += 8
            } else {
                if matches("#FIXED") {
                    pos += 6
                    try requireDeclarationSpace("after `#FIXED`")
                }
                guard pos < end, base[pos] == UInt8(ascii: "\"") || base[pos] == UInt8(ascii: "'") else {
                    throw failure(
                        "expected `#REQUIRED`, `#IMPLIED`, `#FIXED` or a quoted default value for `\(name)`"
                            + describeNext())
                }
                let expandedBefore = expandedBytes
                let value = try parseAttributeValue()
                defaultValue = isCDATA ? value : XMLScanner.collapseSpaces(value)
                defaultExpansion = expandedBytes - expandedBefore
            }
            if processes {
                // In place and indexed: copying the list and searching it for each declaration was quadratic.
                attributeDeclarations[element, default: AttributeList()].add(
                    AttributeDeclaration(
                        name: name, isCDATA: isCDATA, defaultValue: defaultValue, defaultExpansion: defaultExpansion))
            }
        }
    }

    /// Parses `( a | b | c )` of names (NotationType) or name tokens (Enumeration); the position is on `(`.
    mutating func parseEnumeration(names: Bool) throws {
        guard pos < end, base[pos] == UInt8(ascii: "(") else {
            throw failure("expected `(` to start a list of values\(describeNext())")
        }
        pos += 1
        while true {
            skipWhitespace()
            if pos < end, base[pos] == UInt8(ascii: "%") { throw parameterReferenceInDeclaration() }
            if names {
                let nameRange = try requireName("in a NOTATION type")
                try checkNoColon(nameRange, "notation name")
            } else {
                try scanNmtoken()
            }
            skipWhitespace()
            guard pos < end else { throw failure("a list of values is not closed") }
            if base[pos] == UInt8(ascii: ")") {
                pos += 1
                return
            }
            guard base[pos] == UInt8(ascii: "|") else {
                throw failure("expected `|` or `)` in a list of values\(describeNext())")
            }
            pos += 1
        }
    }

    /// Scans an Nmtoken (§2.3 [7]).
    mutating func scanNmtoken() throws {
        let start = pos
        while pos < end {
            let byte = base[pos]
            if byte < 0x80 {
                if classes[Int(byte)] & XMLCharacterClass.nameChar == 0 { break }
                pos += 1
            } else {
                guard let (scalar, length) = XMLCharacterClass.decode(base, pos, end),
                    XMLCharacterClass.isNameChar(scalar)
                else { break }
                pos += length
            }
        }
        guard pos > start else { throw failure("expected a name token in a list of values\(describeNext())") }
        if pos - start > options.maxNameLength {
            throw limit("a name token is longer than \(options.maxNameLength) bytes", "maxNameLength")
        }
    }

    // MARK: - ENTITY

    /// Parses `<!ENTITY ...>` (§4.2 [70]).
    mutating func parseEntityDeclaration() throws {
        pos += 8
        guard skipWhitespace() else { throw failure("expected white space after `<!ENTITY`\(describeNext())") }
        var isParameter = false
        if pos < end, base[pos] == UInt8(ascii: "%") {
            pos += 1
            guard skipWhitespace() else {
                throw failure(
                    "expected white space after `%` in `<!ENTITY %` (or this is a parameter-entity reference inside "
                        + "a declaration, which the internal subset does not allow)")
            }
            isParameter = true
        }
        let nameRange = try requireDeclarationName("for the entity in `<!ENTITY`")
        try checkNoColon(nameRange, "entity name")
        let name = string(nameRange)
        try requireDeclarationSpace("after the entity name `\(name)`")
        var entity = Entity()
        if pos < end, base[pos] == UInt8(ascii: "\"") || base[pos] == UInt8(ascii: "'") {
            entity.replacement = try parseEntityValue()
        } else if matches("SYSTEM") || matches("PUBLIC") {
            _ = try parseExternalID(systemOptional: false)
            let hadSpace = skipWhitespace()
            if matches("NDATA") {
                guard !isParameter else {
                    throw failure("a parameter entity cannot be unparsed (`NDATA`) (XML 1.0 §4.2.2 [74])")
                }
                guard hadSpace else { throw failure("expected white space before `NDATA`") }
                pos += 5
                try requireDeclarationSpace("after `NDATA`")
                let notationRange = try requireDeclarationName("after `NDATA`")
                try checkNoColon(notationRange, "notation name")
                entity.isUnparsed = true
            }
        } else {
            throw failure(
                "expected a quoted entity value or an external identifier (`SYSTEM` or `PUBLIC`) for `\(name)`"
                    + describeNext())
        }
        try endDeclaration("ENTITY")
        guard processesDeclarations else { return }
        if isParameter {
            if parameterEntities[name] == nil { parameterEntities[name] = entity }
        } else if generalEntities[name] == nil {
            generalEntities[name] = entity
        }
    }

    /// Parses an EntityValue (§2.3 [9]) into the replacement text (§4.5): character references expanded, general
    /// entity references kept as written; the position is on the opening quote.
    mutating func parseEntityValue() throws -> [UInt8] {
        let quote = base[pos]
        pos += 1
        var value: [UInt8] = []
        while true {
            let stop = try scanEntityValueRun(quote: quote)
            value.append(contentsOf: UnsafeBufferPointer(start: base + pos, count: stop - pos))
            pos = stop
            guard pos < end else { throw failure("an entity value is not closed; end it with \(quoteName(quote))") }
            let byte = base[pos]
            switch byte {
            case quote:
                pos += 1
                return value
            case UInt8(ascii: "%"):
                throw parameterReferenceInDeclaration()
            case UInt8(ascii: "&"):
                let referenceStart = pos
                pos += 1
                if pos < end, base[pos] == UInt8(ascii: "#") {
                    XMLCharacterClass.appendUTF8(try parseCharacterReference(), to: &value)
                } else {
                    guard try scanName() != nil, pos < end, base[pos] == UInt8(ascii: ";") else {
                        throw failure(
                            "`&` in an entity value must start a reference such as `&amp;` or `&#38;`; write `&#38;` "
                                + "for a literal ampersand",
                            at: referenceStart)
                    }
                    pos += 1
                    value.append(
                        contentsOf: UnsafeBufferPointer(start: base + referenceStart, count: pos - referenceStart))
                }
            case 0x0D:
                value.append(consumeLineEnd())
            default:
                throw invalidCharacter(at: pos)
            }
        }
    }

    /// Scans to the next quote, `%`, `&`, carriage return or non-Char byte.
    func scanEntityValueRun(quote: UInt8) throws -> Int {
        var index = pos
        while index < end {
            let byte = base[index]
            if byte < 0x80 {
                if byte == quote || byte == UInt8(ascii: "%") || byte == UInt8(ascii: "&") || byte == 0x0D
                    || classes[Int(byte)] & XMLCharacterClass.invalid != 0
                {
                    break
                }
                index += 1
            } else {
                guard let (_, length) = XMLCharacterClass.decode(base, index, end) else {
                    throw invalidCharacter(at: index)
                }
                index += length
            }
        }
        return index
    }

    // MARK: - NOTATION

    /// Parses `<!NOTATION name (ExternalID | PublicID)>` (§4.7 [82]).
    mutating func parseNotationDeclaration() throws {
        pos += 10
        try requireDeclarationSpace("after `<!NOTATION`")
        let nameRange = try requireDeclarationName("for the notation in `<!NOTATION`")
        try checkNoColon(nameRange, "notation name")
        let name = string(nameRange)
        try requireDeclarationSpace("after the notation name `\(name)`")
        guard matches("SYSTEM") || matches("PUBLIC") else {
            throw failure("expected `SYSTEM` or `PUBLIC` in the notation declaration `\(name)`\(describeNext())")
        }
        let (publicID, systemID) = try parseExternalID(systemOptional: true)
        try endDeclaration("NOTATION")
        // A set, not a search of the list: a subset of many notations made the search quadratic.
        if notationNames.insert(name).inserted {
            notations.append(XMLNotation(name: name, publicID: publicID, systemID: systemID))
        }
    }
}

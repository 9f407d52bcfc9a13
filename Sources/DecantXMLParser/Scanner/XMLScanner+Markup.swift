// Comments, processing instructions, CDATA sections and the XML declaration.
extension XMLScanner {
    /// Scans from `start` to the next `delimiter`, carriage return or non-Char byte, validating UTF-8.
    @inline(__always)
    func scanUntil(_ delimiter: UInt8, from start: Int) throws -> Int {
        var index = start
        let base = self.base
        let end = self.end
        let classes = self.classes
        while index < end {
            let byte = base[index]
            if byte < 0x80 {
                if byte == delimiter || byte == 0x0D || classes[Int(byte)] & XMLCharacterClass.invalid != 0 { break }
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

    /// Parses a comment (§2.5 [15]); the position is on `<!--`.
    mutating func parseComment(emits: Bool) throws {
        let startOffset = mainOffset
        pos += 4
        scratch.removeAll(keepingCapacity: true)
        while true {
            let index = try scanUntil(UInt8(ascii: "-"), from: pos)
            scratch.append(contentsOf: UnsafeBufferPointer(start: base + pos, count: index - pos))
            pos = index
            guard pos < end else {
                throw failure("a comment is not closed; end it with `-->`", at: startOffset)
            }
            let byte = base[pos]
            if byte == UInt8(ascii: "-") {
                if pos + 1 < end, base[pos + 1] == UInt8(ascii: "-") {
                    guard pos + 2 < end, base[pos + 2] == UInt8(ascii: ">") else {
                        throw failure("`--` is not allowed inside a comment (XML 1.0 §2.5)")
                    }
                    pos += 3
                    break
                }
                scratch.append(byte)
                pos += 1
            } else if byte == 0x0D {
                scratch.append(consumeLineEnd())
            } else {
                throw invalidCharacter(at: pos)
            }
            guard scratch.count <= options.maxTextLength else {
                throw limit("a comment is longer than \(options.maxTextLength) bytes", "maxTextLength")
            }
        }
        guard scratch.count <= options.maxTextLength else {
            throw limit("a comment is longer than \(options.maxTextLength) bytes", "maxTextLength")
        }
        if emits { try emitGathered(fromText: false, at: startOffset) { .comment($0) } }
    }

    /// Parses a processing instruction (§2.6 [16]); the position is on `<?`.
    mutating func parseProcessingInstruction(emits: Bool) throws {
        let startOffset = mainOffset
        pos += 2
        guard let targetRange = try scanName() else {
            throw failure("a processing instruction needs a target name after `<?`\(describeNext())")
        }
        let target = string(targetRange)
        if targetRange.count == 3, target.lowercased() == "xml" {
            throw failure(
                "the XML declaration `<?xml ...?>` is only allowed at the very start of the document (no white space "
                    + "or byte order mark other than one at the start may precede it), and `xml` is reserved as a "
                    + "processing instruction target (XML 1.0 §2.6, §2.8)",
                at: startOffset)
        }
        try checkNoColon(targetRange, "processing instruction target")
        scratch.removeAll(keepingCapacity: true)
        if matches("?>") {
            pos += 2
        } else {
            guard skipWhitespace() else {
                throw failure(
                    "the processing instruction target `\(target)` must be followed by white space or `?>`"
                        + describeNext())
            }
            while true {
                let index = try scanUntil(UInt8(ascii: "?"), from: pos)
                scratch.append(contentsOf: UnsafeBufferPointer(start: base + pos, count: index - pos))
                pos = index
                guard pos < end else {
                    throw failure("the processing instruction `<?\(target)` is not closed; end it with `?>`")
                }
                let byte = base[pos]
                if byte == UInt8(ascii: "?") {
                    if pos + 1 < end, base[pos + 1] == UInt8(ascii: ">") {
                        pos += 2
                        break
                    }
                    scratch.append(byte)
                    pos += 1
                } else if byte == 0x0D {
                    scratch.append(consumeLineEnd())
                } else {
                    throw invalidCharacter(at: pos)
                }
                guard scratch.count <= options.maxTextLength else {
                    throw limit(
                        "a processing instruction is longer than \(options.maxTextLength) bytes", "maxTextLength")
                }
            }
        }
        if emits {
            let targetBytes = UnsafeBufferPointer(start: base + targetRange.lowerBound, count: targetRange.count)
            try emitGathered(fromText: false, at: startOffset, moreBytes: targetBytes.count) {
                .processingInstruction(target: targetBytes, data: $0)
            }
        }
    }

    /// Parses a CDATA section (§2.7 [18]); the position is on `<![CDATA[`.
    mutating func parseCDATA() throws {
        let startOffset = mainOffset
        pos += 9
        scratch.removeAll(keepingCapacity: true)
        while true {
            let index = try scanUntil(UInt8(ascii: "]"), from: pos)
            scratch.append(contentsOf: UnsafeBufferPointer(start: base + pos, count: index - pos))
            pos = index
            guard scratch.count <= options.maxTextLength else {
                throw limit("a CDATA section is longer than \(options.maxTextLength) bytes", "maxTextLength")
            }
            guard pos < end else {
                throw failure("a CDATA section is not closed; end it with `]]>`", at: startOffset)
            }
            let byte = base[pos]
            if byte == UInt8(ascii: "]") {
                if matches("]]>") {
                    pos += 3
                    break
                }
                scratch.append(byte)
                pos += 1
            } else if byte == 0x0D {
                scratch.append(consumeLineEnd())
            } else {
                throw invalidCharacter(at: pos)
            }
        }
        try emitGathered(fromText: false, at: startOffset) { .cdata($0) }
    }

    // MARK: - XML declaration

    /// Parses `S? = S?` and a quoted value of ASCII bytes accepted by `isValid`; returns the value.
    mutating func parseDeclarationValue(_ name: String) throws -> String {
        skipWhitespace()
        try expect("=", "after `\(name)` in the XML declaration")
        skipWhitespace()
        guard pos < end, base[pos] == UInt8(ascii: "\"") || base[pos] == UInt8(ascii: "'") else {
            throw failure("the value of `\(name)` in the XML declaration must be quoted\(describeNext())")
        }
        let quote = base[pos]
        pos += 1
        let start = pos
        while pos < end, base[pos] != quote, base[pos] != UInt8(ascii: "?"), base[pos] != UInt8(ascii: ">") {
            pos += 1
        }
        guard pos < end, base[pos] == quote else {
            throw failure("the value of `\(name)` in the XML declaration is not closed")
        }
        pos += 1
        return string(start..<(pos - 1))
    }

    /// Parses the XML declaration (§2.8 [23]); the position is on `<?xml`.
    mutating func parseXMLDeclaration() throws {
        let startOffset = pos
        pos += 5
        skipWhitespace()
        guard matches("version") else {
            throw failure("the XML declaration must start with `version`, such as `<?xml version=\"1.0\"?>`")
        }
        pos += 7
        let version = try parseDeclarationValue("version")
        let versionBytes = Array(version.utf8)
        guard versionBytes.count > 2, versionBytes[0] == UInt8(ascii: "1"), versionBytes[1] == UInt8(ascii: "."),
            versionBytes[2...].allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
        else {
            throw failure("the XML version `\(version)` is not `1.` followed by digits; write `version=\"1.0\"`")
        }
        var hadSpace = skipWhitespace()
        var encoding: String?
        if matches("encoding") {
            guard hadSpace else { throw failure("expected white space before `encoding` in the XML declaration") }
            pos += 8
            let name = try parseDeclarationValue("encoding")
            let bytes = Array(name.utf8)
            let isLetter = { (byte: UInt8) in
                (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
            }
            guard let first = bytes.first, isLetter(first),
                bytes.dropFirst().allSatisfy({
                    isLetter($0) || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) || $0 == UInt8(ascii: ".")
                        || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-")
                })
            else {
                throw failure("`\(name)` is not an encoding name (XML 1.0 §4.3.3 [81]), such as `UTF-8`")
            }
            encoding = name
            hadSpace = skipWhitespace()
        }
        var standalone: Bool?
        if matches("standalone") {
            guard hadSpace else { throw failure("expected white space before `standalone` in the XML declaration") }
            pos += 10
            let value = try parseDeclarationValue("standalone")
            switch value {
            case "yes": standalone = true
            case "no": standalone = false
            default: throw failure("`standalone` must be `yes` or `no`, not `\(value)`")
            }
            skipWhitespace()
        }
        guard matches("?>") else {
            throw failure(
                "expected `?>` to end the XML declaration (its parts are version, encoding, standalone, in this "
                    + "order)\(describeNext())")
        }
        pos += 2
        if let encoding, var problem = encodingCheck(encoding) {
            problem.offset = startOffset
            throw problem
        }
        self.standalone = standalone
        let declaration = XMLDeclaration(version: version, encoding: encoding, standalone: standalone)
        try emit(.xmlDeclaration(declaration), nodes: 0, bytes: 0, at: startOffset)
    }
}

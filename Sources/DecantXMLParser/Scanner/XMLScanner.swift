import DecantCore

/// The XML 1.0 (Fifth Edition) + Namespaces scanner: a non-validating processor over UTF-8 bytes.
///
/// It reads from one input at a time: the document, or the replacement text of an internal entity being expanded
/// (an explicit stack, never recursion). Markup never spans two inputs, which enforces the proper nesting of entities
/// and markup (§4.3.2, §4.5). The document bytes are borrowed; entity replacement text is copied into buffers that
/// the scanner frees when the entity ends (``releaseInputs()``).
struct XMLScanner<Sink: XMLSpanSink> {
    /// One suspended input, saved when an entity's replacement text is pushed.
    struct Frame {
        var savedBase: UnsafePointer<UInt8>
        var savedEnd: Int
        var savedPos: Int
        var name: String
        var isParameter: Bool
        var elementDepth: Int
        var buffer: UnsafeMutablePointer<UInt8>
        var referenceOffset: Int
    }

    /// A declared entity.
    struct Entity {
        /// The replacement text of an internal entity; `nil` for external ones.
        var replacement: [UInt8]?
        var isUnparsed = false
    }

    /// A declared attribute of an element type.
    struct AttributeDeclaration {
        var name: String
        var isCDATA: Bool
        var defaultValue: String?
        /// The entity replacement text read while parsing the default value, counted again against the expansion
        /// budget each time the default is applied (as if its references were written in the start tag).
        var defaultExpansion = 0
    }

    /// The attributes an `<!ATTLIST>` declares for one element type, in declaration order, indexed so that a start
    /// tag costs as much as its own attributes and the defaults it receives, not as much as the declarations (an
    /// internal subset can declare hundreds of thousands of attributes for one element type).
    struct AttributeList {
        var declarations: [AttributeDeclaration] = []
        /// Where each declared name is in ``declarations``.
        var indexes: [String: Int] = [:]
        /// Where the declarations with a default value are in ``declarations``.
        var defaulted: [Int] = []
        /// Whether some declared type is not CDATA (so that values may need normalizing).
        var hasTokenTypes = false

        /// Adds a declaration unless its name is declared already (the first declaration binds, §3.3).
        mutating func add(_ declaration: AttributeDeclaration) {
            guard indexes[declaration.name] == nil else { return }
            indexes[declaration.name] = declarations.count
            if declaration.defaultValue != nil { defaulted.append(declarations.count) }
            if !declaration.isCDATA { hasTokenTypes = true }
            declarations.append(declaration)
        }
    }

    /// An open element.
    struct OpenElement {
        var name: XMLName
        /// Where the start tag is in the document (its line and column are computed only for an error message).
        var offset: Int
        var namespaceCount: Int
    }

    var sink: Sink
    let options: XMLParsingOptions
    let namespaceAware: Bool
    let classes = XMLCharacterClass.table

    // The current input.
    var base: UnsafePointer<UInt8>
    var end: Int
    var pos: Int
    // The document.
    let mainBase: UnsafePointer<UInt8>
    let mainEnd: Int
    var frames: [Frame] = []
    var tracker: XMLPositionTracker

    // Content state.
    var text: [UInt8] = []
    /// Character data of the document not yet copied into ``text``: the first piece of a run, read in place (only
    /// from the document, whose bytes outlive the run, never from an entity's replacement text), so that a run in one
    /// piece (most are) becomes its string without a copy.
    var textSpan: UnsafePointer<UInt8>?
    /// How many bytes ``textSpan`` holds.
    var textSpanCount = 0
    var textStart = 0
    var scratch: [UInt8] = []
    var elements: [OpenElement] = []
    /// The namespace declarations in scope, in the order they were made (popped by count at each end tag).
    var namespaceBindings: [(prefix: String?, uri: String)] = []
    /// The same bindings by prefix (`nil`: the default namespace), innermost last, so that resolving a name costs one
    /// hash lookup: scanning ``namespaceBindings`` instead made every element cost as much as the declarations in
    /// scope, which a body can make quadratic (many declarations, then many elements).
    var namespaceScopes: [String?: [String]] = [:]
    /// The attributes of the start tag being read (a struct, not a tuple: emptying an array of tuples for every tag
    /// destroyed each element through the runtime's generic tuple code).
    var rawAttributes: [RawAttribute] = []
    /// How many of ``rawAttributes`` declare a namespace.
    var rawDeclarationCount = 0
    /// The element and attribute names read so far, and how they resolved (see ``XMLNameCache``).
    var names = XMLNameCache()
    /// The names in ``rawAttributes`` once a tag has many (see ``isRepeatedAttribute(_:)``).
    var rawAttributeNames: Set<String> = []
    /// The attributes of the last start tag reported, kept so that the next tag refills the same storage: unless the
    /// sink kept that tag's event, the array is no longer shared by then and needs no new allocation.
    var reportedAttributes: [XMLAttribute] = []

    // DTD state.
    var generalEntities: [String: Entity] = [:]
    var parameterEntities: [String: Entity] = [:]
    var attributeDeclarations: [String: AttributeList] = [:]
    var notations: [XMLNotation] = []
    /// The names in ``notations``, for finding repeated declarations without a linear search each time.
    var notationNames: Set<String> = []
    var hasDocumentType = false
    var hasExternalSubset = false
    var sawParameterEntityReference = false
    var skippedParameterEntity = false
    var standalone: Bool?
    var expandedBytes = 0
    let expansionBudget: Int
    /// The response's budget the expansion is charged to (``DecodingBudget/current`` when the scan starts), and
    /// whether what it has left is smaller than this document's own expansion limit.
    let responseBudget: DecodingBudget?
    let responseBudgetBinds: Bool
    /// The nodes and bytes reported so far (see ``emit(_:at:)``), and their budgets.
    var nodeCount = 0
    let nodeBudget: Int
    var outputBytes = 0
    let outputBudget: Int

    /// Checks the encoding the XML declaration names against the one the body was decoded with.
    let encodingCheck: (String) -> XMLFailure?

    init(
        sink: Sink, options: XMLParsingOptions, base: UnsafePointer<UInt8>, start: Int, end: Int,
        bodySize: Int, encodingCheck: @escaping (String) -> XMLFailure?
    ) {
        self.sink = sink
        self.options = options
        self.namespaceAware = options.namespaceAware
        self.base = base
        self.end = end
        self.pos = start
        self.mainBase = base
        self.mainEnd = end
        self.tracker = XMLPositionTracker(start: start)
        let ownExpansion = options.entityExpansionBudget(bodySize: bodySize)
        let responseBudget = DecodingBudget.current
        let capped = responseBudget?.cappingExpansion(ownExpansion) ?? (limit: ownExpansion, budgetBinds: false)
        self.responseBudget = responseBudget
        self.responseBudgetBinds = capped.budgetBinds
        self.expansionBudget = capped.limit
        self.nodeBudget = options.nodeBudget(bodySize: bodySize)
        self.outputBudget = options.outputBudget(bodySize: bodySize)
        self.encodingCheck = encodingCheck
    }

    // MARK: - Inputs and positions

    /// The offset in the document of the current point: inside entity text, where the outermost reference starts.
    var mainOffset: Int { frames.isEmpty ? pos : frames[0].referenceOffset }

    mutating func position(ofMainOffset offset: Int) -> XMLPosition {
        tracker.position(of: offset, in: mainBase, end: mainEnd)
    }

    mutating func currentPosition() -> XMLPosition { position(ofMainOffset: mainOffset) }

    /// Brings a namespace declaration into scope.
    mutating func pushNamespaceBinding(prefix: String?, uri: String) {
        namespaceBindings.append((prefix, uri))
        namespaceScopes[prefix, default: []].append(uri)
        names.bindingsChanged()
    }

    /// Takes the last `count` namespace declarations out of scope.
    @inline(__always)
    mutating func popNamespaceBindings(_ count: Int) {
        guard count > 0 else { return }
        popNamespaceBindingsNow(count)
    }

    /// ``popNamespaceBindings(_:)`` for a tag that declared some.
    mutating func popNamespaceBindingsNow(_ count: Int) {
        for _ in 0..<count {
            let binding = namespaceBindings.removeLast()
            namespaceScopes[binding.prefix]?.removeLast()
        }
        names.bindingsChanged()
    }

    /// Frees every entity buffer still pushed (after an error).
    mutating func releaseInputs() {
        while let frame = frames.popLast() { frame.buffer.deallocate() }
    }

    /// Pushes the replacement text of an entity, after checking recursion, nesting and the expansion budget.
    mutating func pushEntity(_ name: String, replacement: [UInt8], isParameter: Bool, referenceOffset: Int) throws {
        let sigil = isParameter ? "%" : "&"
        if frames.contains(where: { $0.name == name && $0.isParameter == isParameter }) {
            let chain = frames.filter { $0.isParameter == isParameter }.map { "\(sigil)\($0.name);" }
            throw failure(
                "the entity `\(sigil)\(name);` refers to itself (\((chain + ["\(sigil)\(name);"]).joined(separator: " → "))); "
                    + "entities must not be recursive")
        }
        guard frames.count < options.maxEntityNestingDepth else {
            throw limit(
                "entity references are nested more than \(options.maxEntityNestingDepth) deep (at `\(sigil)\(name);`)",
                "maxEntityNestingDepth")
        }
        try countExpansion(replacement.count, "expanding `\(sigil)\(name);`")
        guard !replacement.isEmpty else { return }
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: replacement.count)
        replacement.withUnsafeBufferPointer { buffer.initialize(from: $0.baseAddress!, count: $0.count) }
        frames.append(
            Frame(
                savedBase: base, savedEnd: end, savedPos: pos, name: name, isParameter: isParameter,
                elementDepth: elements.count, buffer: buffer,
                referenceOffset: frames.isEmpty ? referenceOffset : frames[0].referenceOffset))
        base = UnsafePointer(buffer)
        pos = 0
        end = replacement.count
    }

    /// Adds `count` bytes of entity replacement text to the total; `what` (such as "expanding `&e;`") says what read
    /// them, for the message when the total goes over the budget.
    mutating func countExpansion(_ count: Int, _ what: @autoclosure () -> String) throws {
        expandedBytes += count
        guard expandedBytes <= expansionBudget else {
            if responseBudgetBinds, let responseBudget {
                let refusal = responseBudget.refusal(for: "the XML document", expansion: true)
                throw XMLFailure(
                    kind: .limitExceeded, reason: "\(what()) goes past the response's budget: " + refusal.message,
                    offset: mainOffset, limitName: "DecodingBudget.maxExpansionBytes")
            }
            let byBytes = options.maxEntityExpansionBytes <= expansionBudget
            let option = byBytes ? "maxEntityExpansionBytes" : "maxEntityExpansionRatio"
            let detail =
                byBytes
                ? "more than \(options.maxEntityExpansionBytes) bytes"
                : "more than \(options.maxEntityExpansionRatio) times the body size"
            throw limit("\(what()) makes the entity replacement text read in total \(detail)", option)
        }
    }

    /// Reports an event to the sink after counting it against the node and output budgets: each element, attribute,
    /// namespace declaration, run of text, CDATA section, comment, processing instruction and document type is a node,
    /// and its names, values and text are output bytes (an end tag is neither: its name was counted at the start; see
    /// ``emitEnd(_:at:)``). Text is counted on its span, which holds exactly the bytes a `String` of it would. The
    /// caller, which knows what it reports, passes the counts.
    @inline(__always)
    mutating func emit(_ event: consuming XMLScanEvent, nodes: Int = 1, bytes: Int, at offset: Int) throws {
        try account(nodes: nodes, bytes: bytes)
        try sink.receive(event, at: offset)
    }

    /// Reports a start tag as ``emit(_:nodes:bytes:at:)`` does, counting it without first copying it into an event.
    @inline(__always)
    mutating func emitStart(_ start: inout XMLElementStart, at offset: Int) throws {
        let (nodes, bytes) = Self.size(of: start)
        try account(nodes: nodes, bytes: bytes)
        // Lent by address: the sink reads the scanner's own value, which is neither copied nor retained for it.
        try withUnsafePointer(to: &start) { start in try sink.receive(.startElement(start), at: offset) }
    }

    /// Reports an end tag, which counts against no budget (its name was counted at the start tag).
    @inline(__always)
    mutating func emitEnd(_ name: XMLName, at offset: Int) throws {
        try sink.receive(.endElement(name), at: offset)
    }

    /// The nodes and output bytes of a start tag (see ``emit(_:nodes:bytes:at:)``).
    @inline(__always)
    static func size(of start: XMLElementStart) -> (nodes: Int, bytes: Int) {
        var bytes = start.name.qualifiedName.utf8.count
        for attribute in start.attributes {
            bytes += attribute.name.qualifiedName.utf8.count + attribute.value.utf8.count
        }
        for declaration in start.namespaceDeclarations {
            bytes += (declaration.prefix?.utf8.count ?? 0) + declaration.uri.utf8.count
        }
        return (1 + start.attributes.count + start.namespaceDeclarations.count, bytes)
    }

    /// Counts `nodes` and `bytes` against the node and output budgets (see ``emit(_:nodes:bytes:at:)``).
    @inline(__always)
    mutating func account(nodes: Int, bytes: Int) throws {
        nodeCount &+= nodes
        outputBytes &+= bytes
        if nodeCount > nodeBudget || outputBytes > outputBudget { throw budgetExceeded() }
    }

    /// The failure for a document past its node or output budget (see ``account(nodes:bytes:)``), kept out of the
    /// path that counts.
    @inline(never)
    func budgetExceeded() -> XMLFailure {
        if nodeCount > nodeBudget {
            let byCount = options.maxNodeCount <= nodeBudget
            return limit(
                "the document has more than "
                    + (byCount
                        ? "\(options.maxNodeCount) nodes"
                        : "\(options.maxNodesPerByte) node(s) per byte of body (\(nodeBudget) nodes)")
                    + " (elements, attributes, text, comments and processing instructions, counted with the "
                    + "entities and attribute defaults they come from)",
                byCount ? "maxNodeCount" : "maxNodesPerByte")
        }
        let byBytes = options.maxOutputBytes <= outputBudget
        return limit(
            "the document's names, attribute values and text add up to more than "
                + (byBytes
                    ? "\(options.maxOutputBytes) bytes"
                    : "\(options.maxOutputRatio) times the body size (\(outputBudget) bytes)")
                + ", counted with the entities and attribute defaults they come from",
            byBytes ? "maxOutputBytes" : "maxOutputRatio")
    }

    /// Reports an event made from the bytes gathered in ``text`` (`fromText`) or ``scratch``, then empties that buffer
    /// (keeping its capacity). The buffer is moved out of the scanner for the call, so that the sink borrows its bytes
    /// while the scanner stays free to change.
    mutating func emitGathered(
        fromText: Bool, at offset: Int, moreBytes: Int = 0, _ make: (UnsafeBufferPointer<UInt8>) -> XMLScanEvent
    ) throws {
        var bytes: [UInt8] = []
        if fromText { swap(&bytes, &text) } else { swap(&bytes, &scratch) }
        defer {
            bytes.removeAll(keepingCapacity: true)
            if fromText { swap(&bytes, &text) } else { swap(&bytes, &scratch) }
        }
        try bytes.withUnsafeBufferPointer { try emit(make($0), bytes: $0.count + moreBytes, at: offset) }
    }

    /// Pops the current entity input.
    mutating func popEntity() {
        let frame = frames.removeLast()
        frame.buffer.deallocate()
        base = frame.savedBase
        end = frame.savedEnd
        pos = frame.savedPos
    }

    // MARK: - Failures

    func failure(_ reason: String, at offset: Int? = nil) -> XMLFailure {
        XMLFailure(kind: .notWellFormed, reason: reason, offset: frames.isEmpty ? (offset ?? pos) : mainOffset)
    }

    func limit(_ reason: String, _ option: String) -> XMLFailure {
        XMLFailure(
            kind: .limitExceeded,
            reason: reason + "; raise `\(option)` in XMLParsingOptions if the document is trusted",
            offset: mainOffset, limitName: option)
    }

    /// The failure for a byte at `index` that does not start a valid character.
    func invalidCharacter(at index: Int) -> XMLFailure {
        let byte = base[index]
        if byte < 0x80 {
            return failure(
                "the control character U+\(hex(UInt32(byte), width: 4)) is not allowed in XML; remove it "
                    + "(XML 1.0 §2.2 allows only tab, line feed and carriage return below U+0020)",
                at: index)
        }
        if byte == 0xEF, index + 2 < end, base[index + 1] == 0xBF, base[index + 2] & 0xFE == 0xBE {
            let scalar = base[index + 2] == 0xBE ? "FFFE" : "FFFF"
            return failure("the character U+\(scalar) is not allowed in XML (XML 1.0 §2.2)", at: index)
        }
        var failure = self.failure(
            "the byte 0x\(hex(UInt32(byte), width: 2)) is not valid UTF-8; declare the body's real encoding "
                + "in a charset parameter or the XML declaration",
            at: index)
        failure.kind = .invalidEncoding
        return failure
    }

    func hex(_ value: UInt32, width: Int) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    // MARK: - Primitives

    /// Consumes a carriage return (and a line feed after it) and returns what it stands for: in the document a line
    /// feed (§2.11); in entity replacement text, where line ends were normalized when the entity was declared, a
    /// carriage return came from a character reference and stays one.
    @inline(__always)
    mutating func consumeLineEnd() -> UInt8 {
        pos += 1
        guard frames.isEmpty else { return 0x0D }
        if pos < end, base[pos] == 0x0A { pos += 1 }
        return 0x0A
    }

    @inline(__always)
    func byte(at offset: Int) -> UInt8? { pos + offset < end ? base[pos + offset] : nil }

    @inline(__always)
    func matches(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard pos + count <= end else { return false }
        let bytes = literal.utf8Start
        for index in 0..<count where base[pos + index] != bytes[index] { return false }
        return true
    }

    /// Skips white space; whether there was any.
    @inline(__always)
    @discardableResult
    mutating func skipWhitespace() -> Bool {
        let start = pos
        while pos < end, classes[Int(base[pos])] & XMLCharacterClass.whitespace != 0 { pos += 1 }
        return pos > start
    }

    mutating func requireWhitespace(_ context: @autoclosure () -> String) throws {
        guard skipWhitespace() else { throw failure("expected white space \(context())") }
    }

    mutating func expect(_ literal: StaticString, _ context: @autoclosure () -> String) throws {
        guard matches(literal) else { throw failure("expected `\(literal)` \(context())") }
        pos += literal.utf8CodeUnitCount
    }

    /// Scans a Name (§2.3 [5]) at the current position; `nil` (and the position unchanged) when none starts here.
    @inline(__always)
    mutating func scanName() throws -> Range<Int>? {
        let start = pos
        guard start < end else { return nil }
        // In locals, stored once: `pos`, a property, was stored back for every byte.
        let base = self.base
        let end = self.end
        let classes = self.classes
        var index = start
        let first = base[index]
        if first < 0x80 {
            guard classes[Int(first)] & XMLCharacterClass.nameStart != 0 else { return nil }
            index &+= 1
        } else {
            guard let (scalar, length) = XMLCharacterClass.decode(base, index, end),
                XMLCharacterClass.isNameStart(scalar)
            else { return nil }
            index &+= length
        }
        while index < end {
            let byte = base[index]
            if byte < 0x80 {
                if classes[Int(byte)] & XMLCharacterClass.nameChar == 0 { break }
                index &+= 1
            } else {
                guard let (scalar, length) = XMLCharacterClass.decode(base, index, end),
                    XMLCharacterClass.isNameChar(scalar)
                else { break }
                index &+= length
            }
        }
        pos = index
        if index &- start > options.maxNameLength {
            throw limit("a name is longer than \(options.maxNameLength) bytes", "maxNameLength")
        }
        return start..<index
    }

    mutating func requireName(_ context: @autoclosure () -> String) throws -> Range<Int> {
        guard let range = try scanName() else {
            if pos < end, base[pos] >= 0x80, XMLCharacterClass.decode(base, pos, end) == nil {
                throw invalidCharacter(at: pos)
            }
            throw failure("expected a name \(context())\(describeNext())")
        }
        return range
    }

    /// `, found X` for the next character, or `, found the end of the input`.
    func describeNext() -> String {
        guard pos < end else {
            return frames.isEmpty
                ? ", found the end of the document" : ", found the end of the entity `\(frames.last!.name)`"
        }
        let byte = base[pos]
        if byte < 0x80 {
            if byte < 0x21 { return ", found U+\(hex(UInt32(byte), width: 4))" }
            return ", found `\(Character(Unicode.Scalar(byte)))`"
        }
        if let (scalar, _) = XMLCharacterClass.decode(base, pos, end), let unicode = Unicode.Scalar(scalar) {
            return ", found `\(Character(unicode))` (U+\(hex(scalar, width: 4)))"
        }
        return ""
    }

    @inline(__always)
    /// The element or attribute name at `range` of the current input, checked as a qualified name (`what` says which,
    /// for the error) when the parser is namespace-aware: from ``names`` when the same bytes were read before.
    ///
    /// - Returns: the name, and its slot in ``names`` (-1 when it is too long to be remembered).
    mutating func qualifiedName(_ range: Range<Int>, _ what: String) throws -> (name: String, slot: Int) {
        let bytes = base + range.lowerBound
        var slot = -1
        if let found = names.find(bytes, count: range.count, slot: &slot) {
            return (names.qualifiedName(at: found), found)
        }
        let name = string(range)
        if namespaceAware { try checkQName(range, what) }
        names.insert(name, bytes: bytes, count: range.count, slot: slot)
        return (name, slot)
    }

    func string(_ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(start: base + range.lowerBound, count: range.count), as: UTF8.self)
    }

    /// Scans a run of bytes without any of `stopMask`'s ASCII classes, validating UTF-8 and Char; returns where
    /// it stopped (a stop byte or the end of the input).
    @inline(__always)
    func scanRun(from start: Int, stopMask: UInt8) throws -> Int {
        var index = start
        let base = self.base
        let end = self.end
        let classes = self.classes
        let swar = stopMask == XMLCharacterClass.textStop || stopMask == XMLCharacterClass.attributeStop
        while index < end {
            if swar {
                // Eight bytes at a time while none is a stop byte or above ASCII; then one at a time from the first.
                while end &- index >= 8 {
                    let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
                    let stops =
                        stopMask == XMLCharacterClass.textStop
                        ? XMLCharacterClass.textStops(word) : XMLCharacterClass.attributeStops(word)
                    if stops != 0 {
                        index &+= stops.trailingZeroBitCount &>> 3
                        break
                    }
                    index &+= 8
                }
                guard index < end else { break }
            }
            let byte = base[index]
            if byte < 0x80 {
                if classes[Int(byte)] & stopMask != 0 { break }
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

    /// Parses a character reference after `&#` (the position on `#`); returns the scalar.
    mutating func parseCharacterReference() throws -> UInt32 {
        let start = pos - 1
        pos += 1
        var value: UInt32 = 0
        var digits = 0
        if pos < end, base[pos] == UInt8(ascii: "x") {
            pos += 1
            while pos < end {
                let byte = base[pos]
                let digit: UInt32
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
                default: digit = 16
                }
                if digit == 16 { break }
                value = value > 0x10FFFF ? value : value * 16 + digit
                digits += 1
                pos += 1
            }
        } else {
            while pos < end, base[pos] >= UInt8(ascii: "0"), base[pos] <= UInt8(ascii: "9") {
                value = value > 0x10FFFF ? value : value * 10 + UInt32(base[pos] - UInt8(ascii: "0"))
                digits += 1
                pos += 1
            }
        }
        guard digits > 0, pos < end, base[pos] == UInt8(ascii: ";") else {
            throw failure(
                "a character reference must be `&#` digits `;` or `&#x` hexadecimal digits `;`\(describeNext())")
        }
        pos += 1
        guard XMLCharacterClass.isChar(value) else {
            let written = string(start..<pos)
            throw failure(
                "the character reference `\(written)` refers to "
                    + (value > 0x10FFFF ? "no Unicode scalar" : "U+\(hex(value, width: 4))")
                    + ", which is not an XML character (XML 1.0 §4.1, WFC: Legal Character)",
                at: start)
        }
        return value
    }

    /// The byte a predefined entity (`amp`, `lt`, `gt`, `apos`, `quot`) stands for.
    @inline(__always)
    func predefinedEntity(_ range: Range<Int>) -> UInt8? {
        let count = range.count
        let b = base + range.lowerBound
        switch count {
        case 2 where b[1] == UInt8(ascii: "t"):
            if b[0] == UInt8(ascii: "l") { return UInt8(ascii: "<") }
            if b[0] == UInt8(ascii: "g") { return UInt8(ascii: ">") }
        case 3 where b[0] == UInt8(ascii: "a") && b[1] == UInt8(ascii: "m") && b[2] == UInt8(ascii: "p"):
            return UInt8(ascii: "&")
        case 4
        where b[0] == UInt8(ascii: "a") && b[1] == UInt8(ascii: "p") && b[2] == UInt8(ascii: "o")
            && b[3] == UInt8(ascii: "s"):
            return UInt8(ascii: "'")
        case 4
        where b[0] == UInt8(ascii: "q") && b[1] == UInt8(ascii: "u") && b[2] == UInt8(ascii: "o")
            && b[3] == UInt8(ascii: "t"):
            return UInt8(ascii: "\"")
        default: break
        }
        return nil
    }

    /// Whether undeclared general entities are errors (WFC: Entity Declared, §4.1) rather than skipped.
    var entitiesMustBeDeclared: Bool {
        !hasDocumentType || (!hasExternalSubset && !sawParameterEntityReference) || standalone == true
    }

    /// Whether entity and attribute-list declarations are processed (§4.1, §5.1: not after an unread parameter
    /// entity, unless the document is standalone).
    var processesDeclarations: Bool { !skippedParameterEntity || standalone == true }

    /// Checks Namespaces in XML §3 QName syntax: at most one colon, neither first nor last, and an NCName after it.
    func checkQName(_ range: Range<Int>, _ what: String) throws {
        var colon: Int?
        for index in range where base[index] == UInt8(ascii: ":") {
            guard colon == nil else {
                throw failure("the \(what) `\(string(range))` has more than one colon (Namespaces in XML §3)")
            }
            colon = index
        }
        guard let colon else { return }
        guard colon > range.lowerBound, colon + 1 < range.upperBound else {
            throw failure(
                "the \(what) `\(string(range))` starts or ends with a colon; a colon separates a prefix from a local "
                    + "name (Namespaces in XML §3)")
        }
        let first = base[colon + 1]
        let startsName: Bool
        if first < 0x80 {
            startsName = classes[Int(first)] & XMLCharacterClass.nameStart != 0
        } else {
            startsName =
                XMLCharacterClass.decode(base, colon + 1, range.upperBound).map {
                    XMLCharacterClass.isNameStart($0.scalar)
                } ?? false
        }
        guard startsName else {
            throw failure("the local part of the \(what) `\(string(range))` is not a name (Namespaces in XML §3)")
        }
    }

    func checkNoColon(_ range: Range<Int>, _ what: String) throws {
        guard namespaceAware else { return }
        for index in range where base[index] == UInt8(ascii: ":") {
            throw failure(
                "the \(what) `\(string(range))` contains a colon, which Namespaces in XML §7 forbids in \(what)s")
        }
    }
}

/// An attribute of the start tag being read (see ``XMLScanner/rawAttributes``). Kept to 48 bytes: a larger one was
/// copied and destroyed through outlined value witnesses, which cost more than what the fields it gained saved.
struct RawAttribute {
    /// The qualified name as written.
    var name: String
    /// The normalised value.
    var value: String
    /// ``XMLNameCache/insertions`` when the name was read: while it is unchanged, ``slot`` still holds the name.
    var insertions: Int
    /// The name's slot in ``XMLScanner/names``; -1 when it has none.
    var slot: Int32
    /// Whether the tag wrote it (not defaulted from an attribute-list declaration).
    var isSpecified: Bool
    /// Whether the name is `xmlns` or starts with `xmlns:` (a namespace declaration).
    var declaresNamespace: Bool
}

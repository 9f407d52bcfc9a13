import DecantBytes
import DecantCore
import DecantXMLParser

extension XMLTree {
    /// What kind of node an arena slot holds.
    enum Kind: UInt32 {
        case element = 0
        case text = 1
        case cdata = 2
        case comment = 3
        case processingInstruction = 4
    }

    /// One node in 16 bytes: where its subtree ends, its parent, and what it holds.
    struct Slot {
        /// Bits 0-27: the slot after the node's subtree; bits 28-30: the ``Kind``; bit 31: the element was written as
        /// an empty-element tag.
        var endAndKind: UInt32
        /// The parent element's slot, or -1 at the top level.
        var parent: Int32
        /// An element's name (an index into ``Arena/names``); the offset of a text, CDATA section or comment
        /// (a processing instruction: its target, then its data) in ``Arena/text``.
        var payload: UInt32
        /// An element's attributes and namespace declarations (an index into ``Arena/extras``), or `UInt32.max`
        /// when it has none.
        var extra: UInt32
    }

    /// Where an element's attributes and namespace declarations are.
    struct Extra {
        var attributeStart: UInt32
        var attributeCount: UInt32
        var namespaceStart: UInt32
        var namespaceCount: UInt32
    }

    /// One attribute: its name (an index into ``Arena/names``), its value (an offset in ``Arena/text``) and whether
    /// it was written or defaulted.
    struct AttributeEntry {
        var name: UInt32
        var value: UInt32
        var isSpecified: Bool
    }

    /// One namespace declaration: its prefix (an offset in ``Arena/text``, or `UInt32.max` for the default
    /// namespace) and its URI.
    struct NamespaceEntry {
        var prefix: UInt32
        var uri: UInt32
    }

    /// A tree's nodes in flat arrays, in document order.
    ///
    /// A node costs one 16-byte ``Slot``; names are stored once per document (``names``), and every string (text,
    /// attribute values, comments) is a length-prefixed UTF-8 run in one byte array (``text``), so a flood of tiny
    /// elements or text nodes costs a few bytes more than its input rather than a `String` and an array per node.
    struct Arena {
        /// The most slots an arena holds: the end of a subtree has 28 bits.
        static let maxSlots = (1 << 28) - 1
        /// The most bytes ``text`` holds: offsets have 32 bits.
        static let maxTextBytes = Int(UInt32.max) - 16

        var slots: [Slot] = []
        var names: [XMLName] = []
        var text: [UInt8] = []
        var extras: [Extra] = []
        var attributes: [AttributeEntry] = []
        var namespaces: [NamespaceEntry] = []

        var count: Int { slots.count }

        func end(_ slot: Int) -> Int { Int(slots[slot].endAndKind & 0x0FFF_FFFF) }

        func parent(_ slot: Int) -> Int { Int(slots[slot].parent) }

        func kind(_ slot: Int) -> Kind { Kind(rawValue: (slots[slot].endAndKind >> 28) & 0x7) ?? .text }

        func isElement(_ slot: Int) -> Bool { (slots[slot].endAndKind >> 28) & 0x7 == Kind.element.rawValue }

        /// The name of the element at `slot`; call only for element slots.
        func name(_ slot: Int) -> XMLName { names[Int(slots[slot].payload)] }

        /// The string stored at `offset` of ``text`` and the offset after it.
        func string(at offset: UInt32) -> (String, next: UInt32) {
            var position = Int(offset)
            var length = 0
            var shift = 0
            while true {
                let byte = text[position]
                position += 1
                length |= Int(byte & 0x7F) << shift
                if byte < 0x80 { break }
                shift += 7
            }
            let string = String(decoding: text[position..<(position + length)], as: UTF8.self)
            return (string, UInt32(position + length))
        }

        /// The attributes of the element at `slot`.
        func attributes(_ slot: Int) -> [XMLAttribute] {
            let index = slots[slot].extra
            guard index != .max else { return [] }
            let extra = extras[Int(index)]
            let start = Int(extra.attributeStart)
            return attributes[start..<(start + Int(extra.attributeCount))].map { entry in
                XMLAttribute(
                    name: names[Int(entry.name)], value: string(at: entry.value).0, isSpecified: entry.isSpecified)
            }
        }

        /// The namespace declarations of the element at `slot`.
        func namespaceDeclarations(_ slot: Int) -> [XMLNamespaceDeclaration] {
            let index = slots[slot].extra
            guard index != .max else { return [] }
            let extra = extras[Int(index)]
            let start = Int(extra.namespaceStart)
            return namespaces[start..<(start + Int(extra.namespaceCount))].map { entry in
                XMLNamespaceDeclaration(
                    prefix: entry.prefix == .max ? nil : string(at: entry.prefix).0, uri: string(at: entry.uri).0)
            }
        }

        /// The element at `slot`, rebuilt from the arrays.
        func elementRecord(_ slot: Int) -> ElementRecord {
            ElementRecord(
                name: name(slot), attributes: attributes(slot), namespaceDeclarations: namespaceDeclarations(slot),
                isEmptyElementTag: slots[slot].endAndKind & 0x8000_0000 != 0)
        }

        /// What the slot holds, rebuilt from the arrays.
        func content(_ slot: Int) -> Content {
            let payload = slots[slot].payload
            switch kind(slot) {
            case .element: return .element(elementRecord(slot))
            case .text: return .text(string(at: payload).0)
            case .cdata: return .cdata(string(at: payload).0)
            case .comment: return .comment(string(at: payload).0)
            case .processingInstruction:
                let (target, next) = string(at: payload)
                return .processingInstruction(target: target, data: string(at: next).0)
            }
        }

        /// The character data of a text or CDATA slot appended to `output`; nothing for other slots.
        func appendCharacterData(_ slot: Int, to output: inout String) {
            switch kind(slot) {
            case .text, .cdata: output += string(at: slots[slot].payload).0
            default: break
            }
        }

        /// The slots `range` (whole subtrees) as an arena of their own, parents and ends rebased; the name and
        /// string tables are shared, not copied.
        func subtree(_ range: Range<Int>) -> Arena {
            var copy = self
            let base = Int32(range.lowerBound)
            copy.slots = slots[range].map { slot in
                var slot = slot
                let end = Int32(slot.endAndKind & 0x0FFF_FFFF) - base
                slot.endAndKind = (slot.endAndKind & 0xF000_0000) | UInt32(end)
                slot.parent = slot.parent < base ? -1 : slot.parent - base
                return slot
            }
            return copy
        }
    }

    /// Fills an ``Arena`` node by node, interning names.
    struct ArenaBuilder {
        private(set) var arena = Arena()
        private var nameIndexes: [XMLName: UInt32] = [:]

        private static func tooLarge(_ what: String) -> SerializationError {
            SerializationError(
                code: .limitExceeded,
                message: "The document has more \(what) than one XMLTree holds (\(Arena.maxSlots) nodes, 4 GiB of "
                    + "text); read it with XMLStreamParser, which streams events without building a tree.")
        }

        /// Reserves capacity for `slots` nodes and `textBytes` bytes of text, each capped at the arena's maximum.
        mutating func reserve(slots: Int, textBytes: Int) {
            arena.slots.reserveCapacity(min(slots, Arena.maxSlots))
            arena.text.reserveCapacity(min(textBytes, Arena.maxTextBytes))
        }

        /// Where ``Arena/names`` holds the name interned last under each of 256 keys (a hash of the storage the name
        /// shares with its other occurrences), -1 for none: checked before ``nameIndexes``, since the parser hands out
        /// one name for every occurrence of it while the namespace bindings are unchanged, and comparing those is a
        /// pointer comparison where hashing a name is four strings. The arena keeps every name it interned alive, so
        /// a storage identity found here is never reused by another name. Colliding names only miss the cache.
        private var recentNames: [Int] = []

        private mutating func intern(_ name: XMLName) -> UInt32 {
            let identity = name.storageIdentity
            let key = Int(truncatingIfNeeded: (UInt(bitPattern: identity) &* 0x9E37_79B9_7F4A_7C15) &>> 56)
            if recentNames.isEmpty { recentNames = [Int](repeating: -1, count: 256) }
            let recent = recentNames[key]
            if recent >= 0, arena.names[recent].storageIdentity == identity { return UInt32(recent) }
            let index: UInt32
            if let known = nameIndexes[name] {
                index = known
            } else {
                index = UInt32(arena.names.count)
                arena.names.append(name)
                nameIndexes[name] = index
            }
            recentNames[key] = Int(index)
            return index
        }

        /// Stores a string's UTF-8 bytes (see ``store(bytes:)``).
        private mutating func store(_ string: String) throws(SerializationError) -> UInt32 {
            var string = string
            return try string.withUTF8Bytes { bytes throws(SerializationError) in try store(bytes: bytes) }
        }

        /// Stores bytes in ``Arena/text`` after their length (7 bits a byte, low first); returns where.
        private mutating func store(bytes: UnsafeBufferPointer<UInt8>) throws(SerializationError) -> UInt32 {
            assert(openTextStart == nil, "a text node is being gathered; close it first")
            let offset = arena.text.count
            let length = bytes.count
            guard offset + length + 10 <= Arena.maxTextBytes else { throw Self.tooLarge("text") }
            if length < 0x80 {
                arena.text.append(UInt8(length))
            } else {
                arena.text.append(contentsOf: Self.lengthPrefix(length))
            }
            arena.text.append(contentsOf: bytes)
            return UInt32(offset)
        }

        /// The length prefix of a stored string: 7 bits a byte, low first, the high bit set on all but the last.
        private static func lengthPrefix(_ length: Int) -> [UInt8] {
            var prefix: [UInt8] = []
            var remaining = length
            while remaining >= 0x80 {
                prefix.append(UInt8(remaining & 0x7F) | 0x80)
                remaining >>= 7
            }
            prefix.append(UInt8(remaining))
            return prefix
        }

        /// Where the bytes of the text node being gathered start in ``Arena/text`` (written without their length,
        /// which ``closeText(parent:)`` inserts), or `nil` when none is.
        private var openTextStart: Int?

        /// Appends character data to the text node being gathered, opening one if none is: adjacent runs of text
        /// go into the arena as they come, never into a buffer of their own first. Nothing else may be stored
        /// until ``closeText(parent:)``.
        mutating func appendTextBytes(_ bytes: UnsafeBufferPointer<UInt8>) throws(SerializationError) {
            guard !bytes.isEmpty else { return }
            if openTextStart == nil { openTextStart = arena.text.count }
            guard arena.text.count + bytes.count + 10 <= Arena.maxTextBytes else { throw Self.tooLarge("text") }
            arena.text.append(contentsOf: bytes)
        }

        /// Ends the text node being gathered: inserts its length before its bytes and appends its slot; returns
        /// the slot, or `nil` when no text was gathered.
        mutating func closeText(parent: Int) throws(SerializationError) -> Int? {
            guard let start = openTextStart else { return nil }
            openTextStart = nil
            let length = arena.text.count - start
            if length < 0x80 {
                arena.text.insert(UInt8(length), at: start)
            } else {
                arena.text.insert(contentsOf: Self.lengthPrefix(length), at: start)
            }
            return try appendSlot(.text, parent: parent, payload: UInt32(start))
        }

        private mutating func appendSlot(
            _ kind: Kind, parent: Int, payload: UInt32, extra: UInt32 = .max, isEmptyElementTag: Bool = false
        ) throws(SerializationError) -> Int {
            let slot = arena.slots.count
            guard slot < Arena.maxSlots else { throw Self.tooLarge("nodes") }
            var bits = UInt32(slot + 1) | (kind.rawValue << 28)
            if isEmptyElementTag { bits |= 0x8000_0000 }
            arena.slots.append(Slot(endAndKind: bits, parent: Int32(parent), payload: payload, extra: extra))
            return slot
        }

        /// Appends an element start; its end is set by ``close(_:)``.
        mutating func appendElement(_ start: XMLElementStart, parent: Int) throws(SerializationError) -> Int {
            var extra = UInt32.max
            if !start.attributes.isEmpty || !start.namespaceDeclarations.isEmpty {
                let attributeStart = UInt32(arena.attributes.count)
                for attribute in start.attributes {
                    let entry = AttributeEntry(
                        name: intern(attribute.name), value: try store(attribute.value),
                        isSpecified: attribute.isSpecified)
                    arena.attributes.append(entry)
                }
                let namespaceStart = UInt32(arena.namespaces.count)
                for declaration in start.namespaceDeclarations {
                    let prefix = try declaration.prefix.map { prefix throws(SerializationError) in try store(prefix) }
                    arena.namespaces.append(NamespaceEntry(prefix: prefix ?? .max, uri: try store(declaration.uri)))
                }
                extra = UInt32(arena.extras.count)
                arena.extras.append(
                    Extra(
                        attributeStart: attributeStart, attributeCount: UInt32(start.attributes.count),
                        namespaceStart: namespaceStart, namespaceCount: UInt32(start.namespaceDeclarations.count)))
            }
            return try appendSlot(
                .element, parent: parent, payload: intern(start.name), extra: extra,
                isEmptyElementTag: start.isEmptyElementTag)
        }

        /// Appends a text, CDATA or comment node with the given UTF-8 bytes.
        mutating func appendString(
            _ kind: Kind, _ bytes: UnsafeBufferPointer<UInt8>, parent: Int
        ) throws(SerializationError) -> Int {
            try appendSlot(kind, parent: parent, payload: try store(bytes: bytes))
        }

        /// Appends a processing instruction with the given UTF-8 target and data.
        mutating func appendProcessingInstruction(
            target: UnsafeBufferPointer<UInt8>, data: UnsafeBufferPointer<UInt8>, parent: Int
        ) throws(SerializationError) -> Int {
            let offset = try store(bytes: target)
            _ = try store(bytes: data)
            return try appendSlot(.processingInstruction, parent: parent, payload: offset)
        }

        /// Ends the element at `slot` after the last slot appended so far.
        mutating func close(_ slot: Int) {
            let end = UInt32(arena.slots.count)
            arena.slots[slot].endAndKind = (arena.slots[slot].endAndKind & 0xF000_0000) | end
        }
    }
}

extension String {
    /// Calls `body` with the string's UTF-8 bytes in one contiguous piece (`withUTF8`, with a typed error).
    mutating func withUTF8Bytes<Output>(
        _ body: (UnsafeBufferPointer<UInt8>) throws(SerializationError) -> Output
    ) throws(SerializationError) -> Output {
        try withUTF8 { bytes in Result { () throws(SerializationError) in try body(bytes) } }.get()
    }
}

import DecantBytes
import DecantCore

/// The names a document uses, remembered by their bytes: a name read again (the same element and attribute names
/// recur throughout a document) is neither decoded into a new `String`, nor checked against Namespaces in XML again,
/// nor split and bound to its namespace again while the bindings in scope are unchanged.
///
/// Two-way: each name has a pair of slots, chosen by a hash of its bytes; a new name takes the first, moving the name
/// there to the second (and dropping the one there), so that two names used throughout a document that hash to the
/// same pair do not evict each other at every use (direct-mapped, a feed whose hot names collided made 4,630
/// insertions instead of 25, and parsed 40% slower). A name stays in the slot it was found in until another is
/// inserted (see ``insertions``).
///
/// Bounded: ``slotCount`` entries, names of at most ``maxKeyLength`` bytes, and their bytes in an arena that starts
/// over (emptying the cache) past ``maxArenaBytes``, so a document of endless distinct names costs the same memory as
/// any other.
struct XMLNameCache {
    /// One remembered name.
    struct Entry {
        /// Where the name's bytes are in ``XMLNameCache/arena``, and how many; -1 for an empty slot.
        var keyStart = 0, keyCount = -1
        /// The name as a string (already checked as a qualified name when the parser is namespace-aware).
        var qualifiedName = ""
        /// The name resolved as an element name, valid while ``XMLNameCache/generation`` equals `elementGeneration`.
        var elementName: XMLName?
        var elementGeneration = -1
        /// The name resolved as an attribute name, valid likewise.
        var attributeName: XMLName?
        var attributeGeneration = -1
    }

    /// How many slots there are (a power of two).
    static let slotCount = 256
    /// The longest name remembered; longer ones are decoded each time.
    static let maxKeyLength = 64
    /// The most name bytes kept before the cache starts over.
    static let maxArenaBytes = 16_384

    /// The slots, allocated at the first name.
    private var entries: [Entry] = []
    /// The bytes of the names in ``entries``.
    private var arena: [UInt8] = []
    /// Changes whenever a namespace binding comes into or goes out of scope, which invalidates resolved names.
    private(set) var generation = 0
    /// How many names were inserted so far: while it is unchanged, every slot still holds the name it held.
    private(set) var insertions = 0

    /// Records that the namespace bindings in scope changed.
    mutating func bindingsChanged() { generation &+= 1 }

    /// The slot of the `count` bytes at `bytes` when the cache holds that name there; otherwise `nil`, and `slot` is
    /// where it would go (`-1` when it is too long to remember).
    @inline(__always)
    func find(_ bytes: UnsafePointer<UInt8>, count: Int, slot: inout Int) -> Int? {
        guard count <= Self.maxKeyLength, !entries.isEmpty else {
            slot = count <= Self.maxKeyLength ? Self.slot(bytes, count: count) : -1
            return nil
        }
        let index = Self.slot(bytes, count: count)
        slot = index
        if holds(bytes, count: count, at: index) { return index }
        if holds(bytes, count: count, at: index ^ 1) { return index ^ 1 }
        return nil
    }

    /// Whether the entry at `index` holds the `count` bytes at `bytes`.
    @inline(__always)
    private func holds(_ bytes: UnsafePointer<UInt8>, count: Int, at index: Int) -> Bool {
        guard entries[index].keyCount == count else { return false }
        let start = entries[index].keyStart
        return arena.withUnsafeBufferPointer { arena -> Bool in
            guard let key = arena.baseAddress else { return false }
            return ByteRun.equal(key + start, bytes, count: count)
        }
    }

    /// Remembers `qualifiedName`, whose bytes are the `count` at `bytes`, in `slot` (from ``find(_:count:slot:)``);
    /// the name held there moves to the other slot of the pair, replacing the one there.
    mutating func insert(_ qualifiedName: String, bytes: UnsafePointer<UInt8>, count: Int, slot: Int) {
        guard slot >= 0, count <= Self.maxKeyLength else { return }
        insertions &+= 1
        if entries.isEmpty { entries = [Entry](repeating: Entry(), count: Self.slotCount) }
        if arena.count + count > Self.maxArenaBytes {
            arena.removeAll(keepingCapacity: true)
            for index in entries.indices { entries[index] = Entry() }
        }
        let start = arena.count
        arena.append(contentsOf: UnsafeBufferPointer(start: bytes, count: count))
        if entries[slot].keyCount >= 0 { entries[slot ^ 1] = entries[slot] }
        entries[slot] = Entry(keyStart: start, keyCount: count, qualifiedName: qualifiedName)
    }

    /// The qualified name in `slot`.
    func qualifiedName(at slot: Int) -> String { entries[slot].qualifiedName }

    /// The name in `slot` resolved as an element (`isElement`) or attribute name under the current bindings, if
    /// it was resolved since they last changed.
    func resolved(at slot: Int, isElement: Bool) -> XMLName? {
        if isElement {
            return entries[slot].elementGeneration == generation ? entries[slot].elementName : nil
        }
        return entries[slot].attributeGeneration == generation ? entries[slot].attributeName : nil
    }

    /// Remembers `name` as the resolution of the name in `slot` under the current bindings.
    mutating func setResolved(_ name: XMLName, at slot: Int, isElement: Bool) {
        if isElement {
            entries[slot].elementName = name
            entries[slot].elementGeneration = generation
        } else {
            entries[slot].attributeName = name
            entries[slot].attributeGeneration = generation
        }
    }

    /// The slot of a name: a hash of its length and of its first and last eight bytes (or all of them). Not
    /// ``ByteRun/hash(_:count:)``, whose exact treatment of every length up to 16 bytes (which a hash table keyed by
    /// the bytes needs, and a slot does not) made the event parser about 3% slower on the bench's feed.
    @inline(__always)
    static func slot(_ bytes: UnsafePointer<UInt8>, count: Int) -> Int {
        var hash = UInt64(truncatingIfNeeded: count) &* 0x9E37_79B9_7F4A_7C15
        if count >= 8 {
            let raw = UnsafeRawPointer(bytes)
            let first = raw.loadUnaligned(as: UInt64.self)
            let last = raw.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
            hash ^= first &* 0xC2B2_AE3D_27D4_EB4F
            hash = (hash ^ (hash &>> 29)) &* 0x1656_67B1_9E37_79F9
            hash ^= last &* 0xC2B2_AE3D_27D4_EB4F
        } else if count >= 4 {
            let raw = UnsafeRawPointer(bytes)
            let first = UInt64(raw.loadUnaligned(as: UInt32.self))
            let last = UInt64(raw.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self))
            hash ^= (first | last &<< 32) &* 0xC2B2_AE3D_27D4_EB4F
        } else if count > 0 {
            let bytes = UInt64(bytes[0]) | UInt64(bytes[count &>> 1]) &<< 8 | UInt64(bytes[count &- 1]) &<< 16
            hash ^= bytes &* 0xC2B2_AE3D_27D4_EB4F
        }
        hash = (hash ^ (hash &>> 32)) &* 0xD6E8_FEB8_6659_FD93
        return Int(truncatingIfNeeded: hash &>> 32) & (slotCount &- 1)
    }
}

import DecantCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The `Encoder` behind ``JSONValueEncoder``: it writes JSON text into one byte buffer while values encode.
///
/// Every value being encoded has a frame on a stack: pending until its `encode(to:)` asks for a container or writes
/// a scalar, then an open object or array, or a written scalar. Values nest synchronously (a member's `encode(to:)`
/// returns before its container's next member starts), so the open containers are always the end of the buffer and a
/// container is closed when the value that opened it returns. Each container checks on every write that it is still
/// the innermost open one (its frame's serial), so a container used after its value returned throws.
///
/// Containers that `nestedContainer`, `nestedUnkeyedContainer` and `superEncoder` return may be written to in any
/// order with their parent, so each gets its own stream encoder with its own buffer, and the parent keeps a
/// placeholder where the text goes; the texts are spliced in when the parent closes.
///
/// An object's members are recorded (where each starts, its key, where it ends) so that, when it closes, members can
/// be ordered by key (`.sortedKeys`) and a key written twice can keep its first position with its last value.
final class StreamEncoder: Encoder {
    enum Kind: UInt8 {
        /// Nothing written yet.
        case pending
        case object
        case array
        /// A scalar was written through the single-value container.
        case scalar
    }

    struct Frame {
        var kind: Kind
        /// Where the container's opening bracket is in the buffer.
        var start: Int
        /// The number of members or elements written.
        var count: Int
        /// The nesting depth of the value's text: its closing bracket's indentation level.
        var depth: Int
        /// The first of the container's records in ``State/members`` and ``State/placeholders``.
        var memberBase: Int
        var placeholderBase: Int
        var serial: Int
    }

    /// One member of an open object: the key starts at `start` (its opening quote), the key's closing quote is at
    /// `keyEnd - 1`, and the member ends (value included) at `end`.
    struct Member {
        var start: Int
        var keyEnd: Int
        var end: Int
        /// When the key was escaped (so its text is not its bytes), where its UTF-8 bytes are in
        /// ``State/rawKeys``, for ordering; else -1.
        var rawKey: Int
        var rawKeyCount: Int
    }

    /// Text written by another stream encoder, to insert at `offset` when the container closes.
    struct Placeholder {
        var offset: Int
        var child: StreamEncoder
    }

    struct State {
        var output: [UInt8] = []
        var frames: [Frame] = []
        var members: [Member] = []
        var placeholders: [Placeholder] = []
        var rawKeys: [UInt8] = []
        var path: [CodingPathComponent]
        var nextSerial = 1
        /// The serial of the innermost frame (0: none).
        var topSerial = 0
        /// Where the innermost error that is not an `EncodingError` was thrown.
        var failurePath: [CodingPathComponent]?
        /// An error found where the `Encoder` API cannot throw (a container asked of a value that chose another
        /// kind), thrown when encoding ends.
        var deferredError: (any Error)?
        /// Converted keys under `.convertToSnakeCase`.
        var snakeKeys: [String: String] = [:]
    }

    let options: StreamEncodingOptions
    /// The nesting level of this encoder's first frame (non-zero for the encoders of nested containers).
    let baseLevel: Int
    /// The mutable state, out of line so that accessing it needs no dynamic exclusivity checks (the encoder is used
    /// from one thread, and never re-entered while a member is being modified).
    let state: UnsafeMutablePointer<State>

    init(options: StreamEncodingOptions, baseLevel: Int = 0, path: [CodingPathComponent] = []) {
        self.options = options
        self.baseLevel = baseLevel
        state = .allocate(capacity: 1)
        state.initialize(to: State(path: path))
    }

    deinit {
        state.deinitialize(count: 1)
        state.deallocate()
    }

    // MARK: - Encoder

    var codingPath: [any CodingKey] { state.pointee.path.map(\.codingKey) }

    var userInfo: [CodingUserInfoKey: Any] { options.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(
            StreamKeyedContainer<Key>(encoder: self, serial: openTop(.object), pathDepth: state.pointee.path.count))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        StreamUnkeyedContainer(encoder: self, serial: openTop(.array), pathDepth: state.pointee.path.count)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        StreamSingleValueContainer(encoder: self, serial: state.pointee.topSerial)
    }

    // MARK: - Frames

    /// Opens the innermost value as an object or array (or continues it, when it already is one), returning its
    /// serial for the container; -1 when the value already chose something else (the error is deferred).
    func openTop(_ kind: Kind) -> Int {
        let state = self.state
        guard let top = state.pointee.frames.indices.last else {
            deferError(misuse("A container was asked for after encoding ended."))
            return -1
        }
        let current = state.pointee.frames[top].kind
        if current == kind { return state.pointee.frames[top].serial }
        guard current == .pending else {
            let wanted = kind == .object ? "a keyed container" : "an unkeyed container"
            let found =
                current == .object ? "a keyed container" : current == .array ? "an unkeyed container" : "a single value"
            deferError(misuse("An encode(to:) asked for \(wanted) after encoding \(found) for the same value."))
            return -1
        }
        state.pointee.frames[top].kind = kind
        state.pointee.frames[top].start = state.pointee.output.count
        state.pointee.output.append(kind == .object ? UInt8(ascii: "{") : UInt8(ascii: "["))
        return state.pointee.frames[top].serial
    }

    /// Pushes a pending frame for a value at `depth`.
    @inline(__always)
    func push(depth: Int) throws {
        let state = self.state
        let level = baseLevel &+ state.pointee.frames.count
        guard level < options.maxDepth else { throw depthError() }
        let serial = state.pointee.nextSerial
        state.pointee.nextSerial = serial &+ 1
        state.pointee.frames.append(
            Frame(
                kind: .pending, start: state.pointee.output.count, count: 0, depth: depth,
                memberBase: state.pointee.members.count, placeholderBase: state.pointee.placeholders.count,
                serial: serial))
        state.pointee.topSerial = serial
    }

    /// Closes the innermost frame: finishes its container (splicing nested texts, ordering and de-duplicating keys,
    /// writing the closing bracket) and pops it. Returns whether the value wrote nothing.
    @discardableResult
    func closeTop() -> Bool {
        let state = self.state
        let frame = state.pointee.frames.removeLast()
        state.pointee.topSerial = state.pointee.frames.last?.serial ?? 0
        switch frame.kind {
        case .pending: return true
        case .scalar: return false
        case .object, .array:
            let isObject = frame.kind == .object
            if isObject && frame.count > 0 {
                state.pointee.members[state.pointee.members.count - 1].end = state.pointee.output.count
            }
            if state.pointee.placeholders.count > frame.placeholderBase { splice(frame) }
            if isObject && frame.count > 1 { arrangeMembers(frame) }
            state.pointee.members.removeSubrange(frame.memberBase...)
            JSONLayout.end(
                isObject ? UInt8(ascii: "}") : UInt8(ascii: "]"), hasItems: frame.count > 0, depth: frame.depth,
                pretty: options.pretty, into: &state.pointee.output)
            return false
        }
    }

    /// Closes the innermost frame; when its value wrote nothing, writes `{}` as `JSONEncoder` does for a nested value.
    @inline(__always)
    func closeTopWritingEmpty() {
        if closeTop() { state.pointee.output.append(contentsOf: [UInt8(ascii: "{"), UInt8(ascii: "}")]) }
    }

    /// How far the buffer and stacks were, to undo a member or element whose value failed.
    struct Mark {
        let output: Int
        let frames: Int
        let members: Int
        let placeholders: Int
        let rawKeys: Int
        let topCount: Int
        let topKind: Kind
    }

    @inline(__always)
    func mark() -> Mark {
        let state = self.state
        let top = state.pointee.frames.count - 1
        return Mark(
            output: state.pointee.output.count, frames: top + 1, members: state.pointee.members.count,
            placeholders: state.pointee.placeholders.count, rawKeys: state.pointee.rawKeys.count,
            topCount: top >= 0 ? state.pointee.frames[top].count : 0,
            topKind: top >= 0 ? state.pointee.frames[top].kind : .pending)
    }

    /// Undoes everything written since `mark` (a failed value leaves nothing behind, as in `JSONEncoder`).
    func restore(_ mark: Mark) {
        let state = self.state
        state.pointee.output.removeSubrange(mark.output...)
        state.pointee.frames.removeSubrange(mark.frames...)
        state.pointee.members.removeSubrange(mark.members...)
        state.pointee.placeholders.removeSubrange(mark.placeholders...)
        state.pointee.rawKeys.removeSubrange(mark.rawKeys...)
        if mark.frames > 0 {
            state.pointee.frames[mark.frames - 1].count = mark.topCount
            state.pointee.frames[mark.frames - 1].kind = mark.topKind
        }
        state.pointee.topSerial = state.pointee.frames.last?.serial ?? 0
    }

    // MARK: - Items

    /// Checks that the container with `serial` is the innermost open one.
    @inline(__always)
    func check(_ serial: Int) throws {
        guard serial == state.pointee.topSerial else { throw staleContainer(serial) }
    }

    /// Starts a member of the innermost object: separator, indentation, the key `text` and `:`.
    func beginMember(_ serial: Int, key text: String) throws {
        try check(serial)
        let state = self.state
        let top = state.pointee.frames.count - 1
        let count = state.pointee.frames[top].count
        if count > 0 { state.pointee.members[state.pointee.members.count - 1].end = state.pointee.output.count }
        JSONLayout.beginItem(
            first: count == 0, depth: state.pointee.frames[top].depth &+ 1, pretty: options.pretty,
            into: &state.pointee.output)
        let start = state.pointee.output.count
        writeString(text)
        let keyEnd = state.pointee.output.count
        var rawKey = -1
        var rawKeyCount = 0
        if options.sortsKeys && keyEnd - start - 2 != text.utf8.count {
            rawKey = state.pointee.rawKeys.count
            rawKeyCount = text.utf8.count
            state.pointee.rawKeys.append(contentsOf: text.utf8)
        }
        JSONLayout.afterKey(pretty: options.pretty, into: &state.pointee.output)
        state.pointee.members.append(
            Member(start: start, keyEnd: keyEnd, end: keyEnd, rawKey: rawKey, rawKeyCount: rawKeyCount))
        state.pointee.frames[top].count = count &+ 1
    }

    /// Starts an element of the innermost array: separator and indentation. Returns the element's index.
    @discardableResult
    func beginElement(_ serial: Int) throws -> Int {
        try check(serial)
        let state = self.state
        let top = state.pointee.frames.count - 1
        let count = state.pointee.frames[top].count
        JSONLayout.beginItem(
            first: count == 0, depth: state.pointee.frames[top].depth &+ 1, pretty: options.pretty,
            into: &state.pointee.output)
        state.pointee.frames[top].count = count &+ 1
        return count
    }

    /// The depth of the innermost container's items.
    @inline(__always)
    var itemDepth: Int { state.pointee.frames[state.pointee.frames.count - 1].depth &+ 1 }

    /// ``itemDepth``, or 0 when no value is open (a container used after encoding ended, which fails anyway).
    var itemDepthOrZero: Int { state.pointee.frames.last.map { $0.depth &+ 1 } ?? 0 }

    /// The depth of the innermost value.
    var topDepth: Int { state.pointee.frames.last?.depth ?? 0 }

    /// Starts the single value of the innermost value, which must not have written anything yet.
    func beginScalar(_ serial: Int) throws {
        try check(serial)
        let state = self.state
        let top = state.pointee.frames.count - 1
        guard state.pointee.frames[top].kind == .pending else {
            throw misuse("A single-value container was asked to encode a second value for the same value.")
        }
        state.pointee.frames[top].kind = .scalar
    }

    /// A stream encoder for a container or super encoder at the current position of the innermost container, whose
    /// text is spliced in when that container closes.
    func makeChild(path: [CodingPathComponent], depth: Int) -> StreamEncoder {
        let state = self.state
        let child = StreamEncoder(
            options: options, baseLevel: baseLevel &+ state.pointee.frames.count, path: path)
        state.pointee.placeholders.append(Placeholder(offset: state.pointee.output.count, child: child))
        do {
            try child.push(depth: depth)
        } catch {
            deferError(error)
        }
        return child
    }

    /// The child's text, its value finished: a value that wrote nothing is `{}`.
    func finishChild() -> [UInt8] {
        while !state.pointee.frames.isEmpty { closeTopWritingEmpty() }
        return state.pointee.output
    }

    // MARK: - Closing containers

    /// Inserts the texts of the innermost container's children at their placeholders, moving its member records.
    private func splice(_ frame: Frame) {
        let state = self.state
        let placeholders = state.pointee.placeholders[frame.placeholderBase...]
        var inserts: [(offset: Int, text: [UInt8])] = []
        for placeholder in placeholders {
            let text = placeholder.child.finishChild()
            if let error = placeholder.child.state.pointee.deferredError { deferError(error) }
            inserts.append((placeholder.offset, text))
        }
        state.pointee.placeholders.removeSubrange(frame.placeholderBase...)
        var region: [UInt8] = []
        var cursor = frame.start
        for insert in inserts {
            region.append(contentsOf: state.pointee.output[cursor..<insert.offset])
            region.append(contentsOf: insert.text)
            cursor = insert.offset
        }
        region.append(contentsOf: state.pointee.output[cursor...])
        state.pointee.output.replaceSubrange(frame.start..., with: region)
        func moved(_ offset: Int, including: Bool) -> Int {
            var shift = 0
            for insert in inserts where insert.offset < offset || (including && insert.offset == offset) {
                shift += insert.text.count
            }
            return offset + shift
        }
        for index in frame.memberBase..<state.pointee.members.count {
            let member = state.pointee.members[index]
            state.pointee.members[index].start = moved(member.start, including: false)
            state.pointee.members[index].keyEnd = moved(member.keyEnd, including: false)
            state.pointee.members[index].end = moved(member.end, including: true)
        }
    }

    /// Orders the innermost object's members by key when sorting, and keeps one member per key (the first position,
    /// the last value), rewriting the text after its opening brace when anything changes.
    private func arrangeMembers(_ frame: Frame) {
        let state = self.state
        let base = frame.memberBase
        let count = state.pointee.members.count - base
        let members = state.pointee.members
        let sorts = options.sortsKeys
        if !sorts && !hasRepeatedKey(members[base...]) { return }
        let order = byKey(members[base...], rawKeys: state.pointee.rawKeys)
        // `order` lists the members by key, equal keys in encoding order. Keep the last of each run of equal keys,
        // placed where its key first appeared unless sorting.
        var chosen: [(position: Int, member: Int)] = []
        chosen.reserveCapacity(count)
        var changed = sorts
        state.pointee.output.withUnsafeBufferPointer { output in
            var index = 0
            while index < order.count {
                var last = index
                while last + 1 < order.count
                    && keysEqual(members[base + order[index]], members[base + order[last + 1]], output)
                {
                    last += 1
                }
                if last != index { changed = true }
                chosen.append((sorts ? chosen.count : order[index], order[last]))
                index = last + 1
            }
        }
        guard changed else { return }
        if !sorts { chosen.sort { $0.position < $1.position } }
        var region: [UInt8] = []
        region.reserveCapacity(state.pointee.output.count - frame.start)
        for (index, item) in chosen.enumerated() {
            JSONLayout.beginItem(
                first: index == 0, depth: frame.depth &+ 1, pretty: options.pretty, into: &region)
            let member = members[base + item.member]
            region.append(contentsOf: state.pointee.output[member.start..<member.end])
        }
        state.pointee.output.replaceSubrange((frame.start + 1)..., with: region)
    }

    /// Whether two of `members` have the same key: their keys' hashes are compared pairwise (or sorted, for many
    /// members), and only equal hashes compare the keys themselves.
    private func hasRepeatedKey(_ members: ArraySlice<Member>) -> Bool {
        let count = members.count
        return state.pointee.output.withUnsafeBufferPointer { output in
            withUnsafeTemporaryAllocation(of: UInt64.self, capacity: count) { buffer in
                var hashes = buffer
                for (index, member) in members.enumerated() {
                    // FNV-1a over the key's text, quotes included.
                    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
                    for byte in UnsafeBufferPointer(rebasing: output[member.start..<member.keyEnd]) {
                        hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3
                    }
                    hashes[index] = hash
                }
                let base = members.startIndex
                if count <= 64 {
                    for i in 1..<count {
                        for j in 0..<i where hashes[i] == hashes[j] {
                            if keysEqual(members[base + i], members[base + j], output) { return true }
                        }
                    }
                    return false
                }
                hashes.sort()
                for i in 1..<count where hashes[i] == hashes[i - 1] {
                    // A repeated hash: decide on the keys themselves.
                    let order = byKey(members, rawKeys: [])
                    for k in 1..<order.count
                    where keysEqual(members[base + order[k]], members[base + order[k - 1]], output) {
                        return true
                    }
                    return false
                }
                return false
            }
        }
    }

    /// The indices of `members` (relative to their first) ordered by the UTF-8 bytes of their keys, equal keys in
    /// encoding order.
    private func byKey(_ members: ArraySlice<Member>, rawKeys: [UInt8]) -> [Int] {
        let base = members.startIndex
        return state.pointee.output.withUnsafeBufferPointer { output in
            rawKeys.withUnsafeBufferPointer { raw in
                func key(_ member: Member) -> UnsafeBufferPointer<UInt8> {
                    member.rawKey >= 0
                        ? UnsafeBufferPointer(rebasing: raw[member.rawKey..<member.rawKey + member.rawKeyCount])
                        : UnsafeBufferPointer(rebasing: output[(member.start + 1)..<(member.keyEnd - 1)])
                }
                return members.indices.map { $0 - base }.sorted { a, b in
                    let ka = key(members[base + a])
                    let kb = key(members[base + b])
                    if JSONBytes.equal(ka, kb) { return a < b }
                    return JSONBytes.less(ka, kb)
                }
            }
        }
    }

    /// Whether two members have the same key (their escaped texts are equal exactly when their keys are).
    @inline(__always)
    private func keysEqual(_ a: Member, _ b: Member, _ output: UnsafeBufferPointer<UInt8>) -> Bool {
        a.keyEnd - a.start == b.keyEnd - b.start
            && JSONBytes.equal(
                UnsafeBufferPointer(rebasing: output[a.start..<a.keyEnd]),
                UnsafeBufferPointer(rebasing: output[b.start..<b.keyEnd]))
    }

    // MARK: - Errors

    func deferError(_ error: any Error) {
        if state.pointee.deferredError == nil { state.pointee.deferredError = error }
    }

    func misuse(_ description: String) -> EncodingError {
        EncodingError.invalidValue(
            "", EncodingError.Context(codingPath: codingPath, debugDescription: description))
    }

    private func staleContainer(_ serial: Int) -> any Error {
        if serial < 0, let error = state.pointee.deferredError { return error }
        return misuse(
            "A container was written to after the encode(to:) that made it returned, or while a value nested in it "
                + "was being encoded.")
    }

    func depthError() -> SerializationError {
        SerializationError(
            code: .limitExceeded,
            message: "The value is nested more than \(options.maxDepth) levels deep (JSONValueEncoder.maxDepth) at "
                + "\(JSONEncodingFailure.place(codingPath)); an object graph that contains itself never ends. Break "
                + "the cycle, or raise maxDepth for a deep but finite value.",
            serializerID: "json", codingPath: JSONDecodingFailure.strings(codingPath))
    }
}

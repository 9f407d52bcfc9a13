#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The `Decoder` behind ``JSONValueDecoder``: it walks a document's tape with plain indices.
///
/// One instance decodes a whole document. Decoding a nested value moves ``index`` to it and pushes its key or index
/// on ``path`` for the duration of its `init(from:)`, so nothing is allocated per value except what `Decodable`
/// itself asks for (the keyed container boxes). The instance is also the single-value container of the current
/// value, as in `JSONDecoder`.
final class TapeDecoder {
    /// Keeps the tape and the bytes alive (they are immutable, so their addresses are stable).
    let storage: JSONStorage
    let tape: UnsafePointer<UInt64>
    let bytes: UnsafePointer<UInt8>
    /// The tape index of the value decoding started from.
    let root: Int
    let options: TapeDecodingOptions
    /// `options.keyMode`, read on every nested value.
    let keyMode: TapeDecodingOptions.KeyMode
    /// The mutable state, out of line so that accessing it needs no dynamic exclusivity checks (the decoder is
    /// used from one thread, and never re-entered while a member is being modified).
    private let state: UnsafeMutablePointer<State>
    /// Per-depth lookup state of keyed containers: the object, the member after the last one found, and flags.
    let slots: UnsafeMutablePointer<KeySlot>

    struct State {
        /// The tape index of the value being decoded.
        var index: Int
        /// The coding path of the value being decoded.
        var path: [CodingPathComponent]
        /// Lookup tables of large objects, by tape index.
        var tables: [Int: KeyTable] = [:]
        /// Where the innermost error that is not a `DecodingError` was thrown, for its coding path and offset.
        var foreignFailure: (path: [CodingPathComponent], index: Int)?
        /// The paths of containers that keep their own (see ``PathBase``).
        var detachedPaths: [[CodingPathComponent]] = []
        /// The converted keys of containers under a `.custom` key decoding strategy.
        var convertedKeys: [ConvertedKeys] = []
    }

    /// The tape index of the value being decoded.
    var index: Int {
        get { state.pointee.index }
        _modify { yield &state.pointee.index }
    }

    /// The coding path of the value being decoded.
    var path: [CodingPathComponent] {
        get { state.pointee.path }
        _modify { yield &state.pointee.path }
    }

    /// Lookup tables of large objects, by tape index.
    var tables: [Int: KeyTable] {
        get { state.pointee.tables }
        _modify { yield &state.pointee.tables }
    }

    /// Where the innermost error that is not a `DecodingError` was thrown, for its coding path and offset.
    var foreignFailure: (path: [CodingPathComponent], index: Int)? {
        get { state.pointee.foreignFailure }
        set { state.pointee.foreignFailure = newValue }
    }

    static let slotCount = 16

    init(storage: JSONStorage, root: Int, options: TapeDecodingOptions, path: [CodingPathComponent] = []) {
        self.storage = storage
        tape = storage.tape.baseAddress!
        bytes = storage.bytes.baseAddress ?? TapeDecoder.noBytes
        self.root = root
        self.options = options
        keyMode = options.keyMode
        var path = path
        path.reserveCapacity(16)
        state = .allocate(capacity: 1)
        state.initialize(to: State(index: root, path: path))
        slots = .allocate(capacity: TapeDecoder.slotCount)
        slots.initialize(repeating: KeySlot(), count: TapeDecoder.slotCount)
    }

    deinit {
        state.deinitialize(count: 1)
        state.deallocate()
        slots.deallocate()
    }

    /// A decoder for a value of the same document (for `superDecoder`), with its own path.
    init(sharing other: TapeDecoder, at index: Int, path: [CodingPathComponent]) {
        storage = other.storage
        tape = other.tape
        bytes = other.bytes
        root = other.root
        options = other.options
        keyMode = other.keyMode
        state = .allocate(capacity: 1)
        state.initialize(to: State(index: index, path: path))
        slots = .allocate(capacity: TapeDecoder.slotCount)
        slots.initialize(repeating: KeySlot(), count: TapeDecoder.slotCount)
    }

    /// A decoder of `null` (for `superDecoder(forKey:)` with a missing key), with the options of `other`.
    static func null(like other: TapeDecoder, path: [CodingPathComponent]) -> TapeDecoder {
        TapeDecoder(storage: .null, root: 0, options: other.options, path: path)
    }

    /// The base of an empty byte buffer (a value without strings or numbers); never read.
    nonisolated(unsafe) private static let noBytes = UnsafePointer<UInt8>(
        UnsafeMutablePointer<UInt8>.allocate(capacity: 1))

    /// Decodes the root value, with the special cases of `JSONDecoder`'s top level (dates, data, URLs, decimals).
    func decodeRoot<T: Decodable>(_ type: T.Type) throws -> T {
        do {
            return try decodeValue(type)
        } catch {
            noteForeignFailure(error)
            throw error
        }
    }

    // MARK: - Tape access

    @inline(__always) func kind(_ index: Int) -> UInt64 { Tape.kind(tape[index]) }

    @inline(__always) func isNull(_ index: Int) -> Bool { tape[index] == Tape.null }

    /// The bytes of the string or number at `index`.
    @inline(__always) func span(_ index: Int) -> UnsafeBufferPointer<UInt8> {
        let entry = tape[index]
        return UnsafeBufferPointer(start: bytes + Tape.offset(entry), count: Tape.length(entry))
    }

    @inline(__always) func string(at index: Int) -> String {
        String(decoding: span(index), as: UTF8.self)
    }

    /// The index just past the value at `index`.
    @inline(__always) func end(of index: Int) -> Int { index &+ Tape.width(tape[index]) }

    // MARK: - Coding paths

    var codingPath: [any CodingKey] { path.map(\.codingKey) }

    func components(_ base: PathBase) -> [CodingPathComponent] {
        base.detached >= 0 ? state.pointee.detachedPaths[base.detached] : Array(path.prefix(base.depth))
    }

    /// The base of a container that keeps `components` as its path.
    func detach(_ components: [CodingPathComponent]) -> PathBase {
        state.pointee.detachedPaths.append(components)
        return PathBase(depth: components.count, detached: state.pointee.detachedPaths.count - 1)
    }

    /// Keeps `keys` for a container, returning their index for ``convertedKeys(_:)``.
    func keep(_ keys: ConvertedKeys) -> Int {
        state.pointee.convertedKeys.append(keys)
        return state.pointee.convertedKeys.count - 1
    }

    func convertedKeys(_ index: Int) -> ConvertedKeys { state.pointee.convertedKeys[index] }

    func codingPath(_ base: PathBase) -> [any CodingKey] {
        components(base).map(\.codingKey)
    }

    func codingPath(_ base: PathBase, appending component: CodingPathComponent) -> [any CodingKey] {
        var keys = codingPath(base)
        keys.append(component.codingKey)
        return keys
    }

    // MARK: - Nested values

    /// Decodes the value at `index` as a `T`, for the member `key` of a container whose path is `base`.
    @inline(__always)
    func unwrap<T: Decodable, Key: CodingKey>(_ index: Int, as type: T.Type, base: PathBase, key: Key) throws -> T {
        if TapeDecoder.isPrimitive(T.self) {
            do throws(TapeFailure) {
                return try decodePrimitive(index, T.self)
            } catch {
                throw decodingError(error, codingPath: codingPath(base, appending: .key(key)))
            }
        }
        return try unwrapNested(index, as: type, base: base, component: .key(key))
    }

    /// Decodes the value at `index` as a `T`, for the element `element` of an array whose path is `base`.
    @inline(__always)
    func unwrap<T: Decodable>(_ index: Int, as type: T.Type, base: PathBase, element: Int) throws -> T {
        if TapeDecoder.isPrimitive(T.self) {
            do throws(TapeFailure) {
                return try decodePrimitive(index, T.self)
            } catch {
                throw decodingError(error, codingPath: codingPath(base, appending: .index(element)))
            }
        }
        return try unwrapNested(index, as: type, base: base, component: .index(element))
    }

    /// Whether `T` is one of the common scalars that ``decodePrimitive(_:_:)`` reads without entering
    /// `init(from:)`.
    @inline(__always)
    static func isPrimitive<T>(_ type: T.Type) -> Bool {
        T.self == String.self || T.self == Int.self || T.self == Double.self || T.self == Bool.self
            || T.self == Int64.self || T.self == Float.self || T.self == UInt8.self || T.self == Int32.self
            || T.self == UInt64.self
    }

    /// Reads a scalar of a type for which ``isPrimitive(_:)`` is true.
    func decodePrimitive<T>(_ index: Int, _ type: T.Type) throws(TapeFailure) -> T {
        if T.self == String.self { return unsafeBitCast(try readString(index), to: T.self) }
        if T.self == Int.self { return unsafeBitCast(try readInteger(index, Int.self), to: T.self) }
        if T.self == Double.self { return unsafeBitCast(try readDouble(index), to: T.self) }
        if T.self == Bool.self { return unsafeBitCast(try readBool(index), to: T.self) }
        if T.self == Int64.self { return unsafeBitCast(try readInteger(index, Int64.self), to: T.self) }
        if T.self == Float.self { return unsafeBitCast(try readFloat(index), to: T.self) }
        if T.self == UInt8.self { return unsafeBitCast(try readInteger(index, UInt8.self), to: T.self) }
        if T.self == Int32.self { return unsafeBitCast(try readInteger(index, Int32.self), to: T.self) }
        return unsafeBitCast(try readInteger(index, UInt64.self), to: T.self)
    }

    /// Decodes the value at `index` with its coding path `base` + `component` on the path stack.
    func unwrapNested<T: Decodable>(
        _ index: Int, as type: T.Type, base: PathBase, component: CodingPathComponent
    ) throws -> T {
        let savedIndex = self.index
        var savedPath: [CodingPathComponent]?
        if base.detached >= 0 {
            savedPath = path
            path = state.pointee.detachedPaths[base.detached]
        } else if path.count != base.depth {
            // A container used after the value that made it: give it its own path for this call.
            savedPath = path
            path.removeSubrange(min(base.depth, path.count)...)
        }
        path.append(component)
        self.index = index
        defer {
            self.index = savedIndex
            if let savedPath { path = savedPath } else { path.removeLast() }
        }
        do {
            return try decodeValue(type)
        } catch {
            noteForeignFailure(error)
            throw error
        }
    }

    /// Decodes the current value (``index``, with ``path`` set) as a `T`: `JSONDecoder`'s special cases, then
    /// `T.init(from:)`.
    func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        // Arrays of scalars: the result `Array.init(from:)` would give, without its per-element dispatch.
        if T.self == [Double].self { return unsafeBitCast(try decodeArray(Double.self), to: T.self) }
        if T.self == [Int].self { return unsafeBitCast(try decodeArray(Int.self), to: T.self) }
        if T.self == [String].self { return unsafeBitCast(try decodeArray(String.self), to: T.self) }
        if T.self == [Int64].self { return unsafeBitCast(try decodeArray(Int64.self), to: T.self) }
        if T.self == [Float].self { return unsafeBitCast(try decodeArray(Float.self), to: T.self) }
        if T.self == [Bool].self { return unsafeBitCast(try decodeArray(Bool.self), to: T.self) }
        if T.self == Date.self { return unsafeBitCast(try decodeDate(), to: T.self) }
        if T.self == Data.self { return unsafeBitCast(try decodeData(), to: T.self) }
        if T.self == URL.self { return unsafeBitCast(try decodeURL(), to: T.self) }
        if T.self == Decimal.self { return unsafeBitCast(try current(readDecimal), to: T.self) }
        if keyMode != .useDefaultKeys, let dictionary = T.self as? any RawKeyedDictionary.Type {
            // `[String: Value]` keeps its keys as they are, whatever the key strategy (as in `JSONDecoder`).
            return try dictionary.decodeWithRawKeys(self) as! T
        }
        return try T(from: self)
    }

    /// Decodes the current array of scalars as `Array.init(from:)` does through an unkeyed container.
    private func decodeArray<Element>(_ type: Element.Type) throws -> [Element] {
        let array = index
        guard kind(array) == Tape.arrayKind else {
            _ = try unkeyedContainer(at: array, base: .stack(depth: path.count))
            return []
        }
        var result: [Element] = []
        result.reserveCapacity(storage.count(of: array))
        var position = array &+ 1
        let end = self.end(of: array)
        while position < end {
            do throws(TapeFailure) {
                result.append(try decodePrimitive(position, Element.self))
            } catch {
                var keys = codingPath
                keys.append(JSONIndexKey(result.count))
                throw decodingError(error, codingPath: keys)
            }
            position = self.end(of: position)
        }
        return result
    }

    /// Reads the current value with `read`, turning a failure into a `DecodingError` at the current path.
    @inline(__always)
    func current<T>(_ read: (Int) throws(TapeFailure) -> T) throws(DecodingError) -> T {
        do throws(TapeFailure) {
            return try read(index)
        } catch {
            throw decodingError(error, path: path)
        }
    }

    /// Remembers where an error that is not a `DecodingError` was first thrown.
    func noteForeignFailure(_ error: any Error) {
        guard foreignFailure == nil, !(error is DecodingError) else { return }
        foreignFailure = (path, index)
    }

    // MARK: - Special types

    private func checkNotNull(_ type: Any.Type) throws(DecodingError) {
        if isNull(index) { throw decodingError(TapeFailure(.valueNotFound, type, index), path: path) }
    }

    func decodeDate() throws -> Date {
        try checkNotNull(Date.self)
        switch options.dateStrategy {
        case .deferredToDate:
            return Date(timeIntervalSinceReferenceDate: try current(readDouble))
        case .secondsSince1970:
            return Date(timeIntervalSince1970: try current(readDouble))
        case .millisecondsSince1970:
            return Date(timeIntervalSince1970: try current(readDouble) / 1000)
        case .iso8601:
            let text = try current(readString)
            guard let date = ISO8601Dates.parse(text, fractionalSeconds: false) else {
                throw corrupted(JSONDecodingFailure.iso8601Description)
            }
            return date
        case .iso8601WithFractionalSeconds:
            let text = try current(readString)
            guard let date = ISO8601Dates.parse(text, fractionalSeconds: true) else {
                throw corrupted(JSONDecodingFailure.iso8601FractionalDescription)
            }
            return date
        case .custom(let decode):
            return try decode(self)
        }
    }

    func decodeData() throws -> Data {
        try checkNotNull(Data.self)
        switch options.dataStrategy {
        case .deferredToData:
            return try Data(from: self)
        case .base64:
            let text = try current(readString)
            guard let data = Data(base64Encoded: text) else { throw corrupted(JSONDecodingFailure.base64Description) }
            return data
        case .custom(let decode):
            return try decode(self)
        }
    }

    func decodeURL() throws -> URL {
        try checkNotNull(URL.self)
        let text = try current(readString)
        guard let url = URL(string: text) else { throw corrupted(JSONDecodingFailure.urlDescription) }
        return url
    }

    private func corrupted(_ description: String) -> DecodingError {
        .dataCorrupted(DecodingError.Context(codingPath: codingPath, debugDescription: description))
    }

    /// Decodes the current object as `[String: Value]` with its keys unconverted.
    func decodeRawKeyedDictionary<Value: Decodable>(_ type: Value.Type) throws -> [String: Value] {
        let object = index
        switch kind(object) {
        case Tape.objectKind:
            break
        case Tape.nullKind:
            throw decodingError(TapeFailure(.valueNotFound, [String: Any].self, object), path: path)
        default:
            throw decodingError(TapeFailure(.typeMismatch, [String: Any].self, object), path: path)
        }
        var result: [String: Value] = [:]
        result.reserveCapacity(storage.count(of: object))
        let base = PathBase.stack(depth: path.count)
        var position = object + 1
        let end = self.end(of: object)
        while position < end {
            let key = string(at: position)
            if result[key] == nil {
                result[key] = try unwrap(position + 1, as: Value.self, base: base, key: JSONStringKey(key))
            }
            position = self.end(of: position + 1)
        }
        return result
    }
}

/// `[String: Value]`, whose keys a key decoding strategy does not convert.
protocol RawKeyedDictionary {
    static func decodeWithRawKeys(_ decoder: TapeDecoder) throws -> Self
}

extension Dictionary: RawKeyedDictionary where Key == String, Value: Decodable {
    static func decodeWithRawKeys(_ decoder: TapeDecoder) throws -> Self {
        try decoder.decodeRawKeyedDictionary(Value.self)
    }
}

// MARK: - Decoder

extension TapeDecoder: Decoder {
    var userInfo: [CodingUserInfoKey: Any] { options.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        try KeyedDecodingContainer(keyedContainer(Key.self, at: index, base: .stack(depth: path.count)))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try unkeyedContainer(at: index, base: .stack(depth: path.count))
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    /// A keyed container of the object at `index`, or the error `JSONDecoder` throws for other values.
    func keyedContainer<Key: CodingKey>(
        _ type: Key.Type, at index: Int, base: PathBase
    ) throws(DecodingError) -> TapeKeyedContainer<Key> {
        switch kind(index) {
        case Tape.objectKind:
            return TapeKeyedContainer(decoder: self, object: index, base: base)
        case Tape.nullKind:
            throw DecodingError.valueNotFound(
                [String: Any].self,
                DecodingError.Context(
                    codingPath: codingPath(base),
                    debugDescription: "Cannot get keyed decoding container -- found null value instead"))
        default:
            throw decodingError(TapeFailure(.typeMismatch, [String: Any].self, index), path: components(base))
        }
    }

    /// An unkeyed container of the array at `index`, or the error `JSONDecoder` throws for other values.
    func unkeyedContainer(at index: Int, base: PathBase) throws(DecodingError) -> TapeUnkeyedContainer {
        switch kind(index) {
        case Tape.arrayKind:
            return TapeUnkeyedContainer(decoder: self, array: index, base: base)
        case Tape.nullKind:
            throw DecodingError.valueNotFound(
                [Any].self,
                DecodingError.Context(
                    codingPath: codingPath(base),
                    debugDescription: "Cannot get unkeyed decoding container -- found null value instead"))
        default:
            throw decodingError(TapeFailure(.typeMismatch, [Any].self, index), path: components(base))
        }
    }
}

// MARK: - Single value container

extension TapeDecoder: SingleValueDecodingContainer {
    func decodeNil() -> Bool { isNull(index) }
    func decode(_ type: Bool.Type) throws -> Bool { try current(readBool) }
    func decode(_ type: String.Type) throws -> String { try current(readString) }
    func decode(_ type: Double.Type) throws -> Double { try current(readDouble) }
    func decode(_ type: Float.Type) throws -> Float { try current(readFloat) }
    func decode(_ type: Int.Type) throws -> Int {
        try current { i throws(TapeFailure) in try readInteger(i, Int.self) }
    }
    func decode(_ type: Int8.Type) throws -> Int8 {
        try current { i throws(TapeFailure) in try readInteger(i, Int8.self) }
    }
    func decode(_ type: Int16.Type) throws -> Int16 {
        try current { i throws(TapeFailure) in try readInteger(i, Int16.self) }
    }
    func decode(_ type: Int32.Type) throws -> Int32 {
        try current { i throws(TapeFailure) in try readInteger(i, Int32.self) }
    }
    func decode(_ type: Int64.Type) throws -> Int64 {
        try current { i throws(TapeFailure) in try readInteger(i, Int64.self) }
    }
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    func decode(_ type: Int128.Type) throws -> Int128 {
        try current { i throws(TapeFailure) in try readInteger(i, Int128.self) }
    }
    func decode(_ type: UInt.Type) throws -> UInt {
        try current { i throws(TapeFailure) in try readInteger(i, UInt.self) }
    }
    func decode(_ type: UInt8.Type) throws -> UInt8 {
        try current { i throws(TapeFailure) in try readInteger(i, UInt8.self) }
    }
    func decode(_ type: UInt16.Type) throws -> UInt16 {
        try current { i throws(TapeFailure) in try readInteger(i, UInt16.self) }
    }
    func decode(_ type: UInt32.Type) throws -> UInt32 {
        try current { i throws(TapeFailure) in try readInteger(i, UInt32.self) }
    }
    func decode(_ type: UInt64.Type) throws -> UInt64 {
        try current { i throws(TapeFailure) in try readInteger(i, UInt64.self) }
    }
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    func decode(_ type: UInt128.Type) throws -> UInt128 {
        try current { i throws(TapeFailure) in try readInteger(i, UInt128.self) }
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        if TapeDecoder.isPrimitive(T.self) {
            do throws(TapeFailure) {
                return try decodePrimitive(index, T.self)
            } catch {
                throw decodingError(error, path: path)
            }
        }
        return try decodeValue(type)
    }
}

/// The lookup state of keyed containers at one depth (see ``TapeDecoder/slots``).
struct KeySlot {
    /// The object the state belongs to (-1: none).
    var object = -1
    /// The tape index of the member after the last one found: where the next lookup starts.
    var hint = 0
    /// For snake-case conversion: 0 not checked, 1 the converted keys are unique, 2 they are not.
    var uniqueness = 0
    /// How many lookups missed the hint and the members after it.
    var misses = 0
}

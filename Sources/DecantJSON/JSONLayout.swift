/// The one layout of Decant's JSON text, compact or pretty-printed, shared by the ``JSONValue`` writer and
/// ``JSONValueEncoder``.
///
/// Compact text has no whitespace. Pretty text puts each element or member on its own line, indented by two spaces
/// per level of nesting, with `": "` after keys and the closing bracket on its own line at the container's level;
/// empty containers stay `[]` and `{}`. (This is what Python's `json.dumps(value, indent=2)` writes.)
enum JSONLayout {
    /// Writes what comes before an element or member of a container whose members are at `depth` (the container's
    /// own depth plus one): a comma unless it is the first, then, when pretty, a new line and the indentation.
    @inline(__always)
    static func beginItem(first: Bool, depth: Int, pretty: Bool, into output: inout [UInt8]) {
        if !first { output.append(UInt8(ascii: ",")) }
        if pretty { newline(depth: depth, into: &output) }
    }

    /// Writes what separates a key from its value: `:`, or `": "` when pretty.
    @inline(__always)
    static func afterKey(pretty: Bool, into output: inout [UInt8]) {
        output.append(UInt8(ascii: ":"))
        if pretty { output.append(0x20) }
    }

    /// Writes the end of a container at `depth` that has items (`hasItems`) or none: when pretty and not empty, a new
    /// line and the container's indentation, then `closer` (`]` or `}`).
    @inline(__always)
    static func end(_ closer: UInt8, hasItems: Bool, depth: Int, pretty: Bool, into output: inout [UInt8]) {
        if pretty && hasItems { newline(depth: depth, into: &output) }
        output.append(closer)
    }

    /// A new line and `depth` levels of indentation.
    @inline(__always)
    static func newline(depth: Int, into output: inout [UInt8]) {
        output.append(0x0A)
        output.append(contentsOf: repeatElement(0x20, count: depth * 2))
    }
}
